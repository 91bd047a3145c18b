//! Pruebas del capítulo 09. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/09-tu-planificador`) y contra la solución
//! (`solutions/09-tu-planificador`). Un módulo por ejercicio.
//!
//! Las de los ejercicios 1 a 3 no lanzan ningún hilo trabajador: construyen
//! a mano el estado compartido y un `Trabajador`, llaman a un paso y miran
//! las colas. Las del ejercicio 4 terminan con el ejecutor entero en marcha.
//! Ninguna mide tiempos: cuentan. El único reloj es un límite muy holgado
//! para que una prueba que se cuelga falle con un mensaje en vez de quedarse
//! ahí para siempre.

mod comun {
    use std::collections::VecDeque;
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::thread;
    use std::time::{Duration, Instant};

    use planificador::robo::ColaLocal;
    use planificador::tarea::Tarea;

    /// Lo que puede tardar algo que, bien hecho, tarda milisegundos.
    pub const LIMITE: Duration = Duration::from_secs(5);

    /// Las tareas `ids`, sin nada dentro.
    pub fn tareas(ids: impl IntoIterator<Item = usize>) -> VecDeque<Arc<Tarea>> {
        ids.into_iter().map(Tarea::de_prueba).collect()
    }

    /// Los ids de una cola, del frente al final.
    pub fn ids(cola: &ColaLocal) -> Vec<usize> {
        cola.lock().unwrap().iter().map(|t| t.id).collect()
    }

    /// Ejecuta `f` en otro hilo y devuelve su resultado. Si no termina en
    /// [`LIMITE`], la prueba falla con `si_se_cuelga`; si entra en pánico,
    /// con su mensaje.
    pub fn con_limite<T: Send + 'static>(si_se_cuelga: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        let hilo = thread::spawn(move || {
            let _ = tx.send(f());
        });
        match rx.recv_timeout(LIMITE) {
            Ok(valor) => valor,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("{si_se_cuelga} (no terminó en {LIMITE:?})"),
            Err(mpsc::RecvTimeoutError::Disconnected) => match hilo.join() {
                Err(panico) => std::panic::resume_unwind(panico),
                Ok(()) => unreachable!("el hilo terminó sin mandar nada"),
            },
        }
    }

    /// Espera a que `condicion` se cumpla; si no se cumple en [`LIMITE`], la
    /// prueba falla con `mensaje`.
    pub fn espera_a(mensaje: &str, condicion: impl Fn() -> bool) {
        let inicio = Instant::now();
        while !condicion() {
            assert!(inicio.elapsed() < LIMITE, "{mensaje} (esperé {LIMITE:?})");
            thread::sleep(Duration::from_millis(1));
        }
    }
}

mod roba {
    use std::sync::{Arc, Mutex};
    use std::thread;

    use planificador::roba::roba_mitad;
    use planificador::robo::ColaLocal;

    use super::comun::{con_limite, espera_a, ids, tareas};

    fn cola(ids: impl IntoIterator<Item = usize>) -> ColaLocal {
        Mutex::new(tareas(ids))
    }

    #[test]
    fn roba_la_mitad_redondeando_hacia_arriba() {
        let (victima, ladron) = (cola(0..5), cola([]));
        let primera = roba_mitad(&victima, &ladron).expect("la víctima tenía 5 tareas: debes robar algo");
        assert_eq!(primera.id, 0, "devuelve la primera robada, la más antigua (el frente de la víctima)");
        assert_eq!(
            ids(&ladron),
            [1, 2],
            "de 5 tareas se roban 3 (la mitad hacia arriba): una se sondea y dos van a tu cola"
        );
        assert_eq!(ids(&victima), [3, 4], "a la víctima le quedan las 2 más nuevas");

        let (victima, ladron) = (cola(0..4), cola([]));
        assert_eq!(roba_mitad(&victima, &ladron).map(|t| t.id), Some(0));
        assert_eq!(ids(&ladron), [1], "de 4 tareas se roban 2");
        assert_eq!(ids(&victima), [2, 3]);
    }

    #[test]
    fn con_una_sola_tarea_se_la_lleva() {
        let (victima, ladron) = (cola([7]), cola([]));
        let robada = roba_mitad(&victima, &ladron);
        assert_eq!(
            robada.map(|t| t.id),
            Some(7),
            "la mitad de 1, redondeando hacia arriba, es 1: si no, una tarea sola en una cola ocupada nunca se reparte"
        );
        assert!(ids(&victima).is_empty() && ids(&ladron).is_empty());
    }

    #[test]
    fn de_una_cola_vacia_no_roba_nada() {
        let (victima, ladron) = (cola([]), cola([9]));
        assert!(roba_mitad(&victima, &ladron).is_none(), "una víctima vacía no da nada");
        assert_eq!(ids(&ladron), [9], "sin botín, tu cola se queda como estaba");
    }

    #[test]
    fn deja_el_botin_en_orden_al_final_de_la_cola_del_ladron() {
        let (victima, ladron) = (cola(0..6), cola([100]));
        assert_eq!(roba_mitad(&victima, &ladron).map(|t| t.id), Some(0));
        assert_eq!(ids(&ladron), [100, 1, 2], "lo robado va al FINAL de tu cola y en el mismo orden");
        assert_eq!(ids(&victima), [3, 4, 5]);
    }

    #[test]
    fn no_retiene_la_cola_de_la_victima_mientras_espera_la_suya() {
        // Alguien tiene tomada la cola del ladrón (su dueño, otro ladrón...).
        // `roba_mitad` tendrá que esperar para dejar el botín, pero mientras
        // tanto la víctima debe quedar libre.
        let victima = Arc::new(cola(0..6));
        let ladron = Arc::new(cola([]));
        let tomada = ladron.lock().unwrap();
        let robo = {
            let (victima, ladron) = (Arc::clone(&victima), Arc::clone(&ladron));
            thread::spawn(move || roba_mitad(&victima, &ladron).map(|t| t.id))
        };
        espera_a(
            "la cola de la víctima sigue tomada (o intacta) mientras esperas la tuya: suelta su candado \
             antes de tomar el tuyo, o dos trabajadores que se roban el uno al otro se bloquearán para siempre",
            || victima.try_lock().is_ok_and(|v| v.len() == 3),
        );
        drop(tomada);
        assert_eq!(robo.join().unwrap(), Some(0));
        assert_eq!(ids(&ladron), [1, 2]);
    }

    #[test]
    fn dos_trabajadores_que_se_roban_a_la_vez_no_se_bloquean_ni_pierden_tareas() {
        let colas: Arc<[ColaLocal; 2]> = Arc::new([cola(0..100), cola(100..200)]);
        let total = con_limite("dos ladrones que se roban el uno al otro se han bloqueado", move || {
            let hilos: Vec<_> = (0..2)
                .map(|yo| {
                    let colas = Arc::clone(&colas);
                    thread::spawn(move || {
                        for _ in 0..5_000 {
                            if let Some(t) = roba_mitad(&colas[1 - yo], &colas[yo]) {
                                colas[yo].lock().unwrap().push_back(t);
                            }
                        }
                    })
                })
                .collect();
            hilos.into_iter().for_each(|h| h.join().unwrap());
            let mut todas: Vec<usize> = colas.iter().flat_map(ids).collect();
            todas.sort();
            todas
        });
        assert_eq!(
            total,
            (0..200).collect::<Vec<_>>(),
            "después de robar y robar, cada tarea debe seguir en una cola, una sola vez"
        );
    }
}

mod siguiente {
    use std::sync::Arc;

    use planificador::robo::{Compartido, MAX_LIFO_SEGUIDAS, Trabajador};
    use planificador::tarea::Tarea;

    use super::comun::{ids, tareas};

    fn un_trabajador(en_cola: impl IntoIterator<Item = usize>) -> (Arc<Compartido>, Trabajador) {
        let compartido = Compartido::nuevo(2);
        compartido.locales[0].lock().unwrap().extend(tareas(en_cola));
        (compartido, Trabajador::nuevo(0, 1))
    }

    #[test]
    fn pon_en_ranura_no_pierde_la_anterior() {
        let (c, mut t) = un_trabajador([]);
        t.pon_en_ranura(&c, Tarea::de_prueba(1));
        assert_eq!(t.ranura_lifo.as_ref().map(|t| t.id), Some(1));
        t.pon_en_ranura(&c, Tarea::de_prueba(2));
        assert_eq!(t.ranura_lifo.as_ref().map(|t| t.id), Some(2), "la última despertada ocupa la ranura");
        assert_eq!(ids(&c.locales[0]), [1], "la que estaba en la ranura pasa al final de TU cola local; no se pierde");
        assert!(ids(&c.locales[1]).is_empty(), "usa la cola de este trabajador (self.indice)");
    }

    #[test]
    fn la_ranura_va_antes_que_la_cola_local() {
        let (c, mut t) = un_trabajador([10, 11]);
        t.pon_en_ranura(&c, Tarea::de_prueba(1));
        let orden: Vec<usize> = std::iter::from_fn(|| t.siguiente_local(&c)).map(|t| t.id).collect();
        assert_eq!(orden, [1, 10, 11], "primero la ranura; después la cola local, del frente al final");
        assert!(t.siguiente_local(&c).is_none(), "sin ranura ni cola local, None");
    }

    #[test]
    fn dos_tareas_que_se_despiertan_sin_parar_no_dejan_sin_turno_a_la_cola() {
        // 1 y 2 se despiertan la una a la otra: cada vez que sale una, la
        // otra entra en la ranura. La 10 espera en la cola local.
        let (c, mut t) = un_trabajador([10]);
        t.pon_en_ranura(&c, Tarea::de_prueba(1));
        let mut orden = Vec::new();
        for _ in 0..6 {
            let tarea = t.siguiente_local(&c).expect("siempre hay algo que sondear");
            orden.push(tarea.id);
            match tarea.id {
                1 => t.pon_en_ranura(&c, Tarea::de_prueba(2)),
                2 => t.pon_en_ranura(&c, Tarea::de_prueba(1)),
                _ => {}
            }
        }
        let tope = MAX_LIFO_SEGUIDAS as usize;
        assert!(
            orden[..=tope].contains(&10),
            "la tarea 10 de la cola debe salir como muy tarde después de {tope} sondeos seguidos de la ranura; \
             salieron {orden:?}: ¿falta el tope de la ranura?"
        );
        assert_eq!(orden[..=tope], [1, 2, 1, 10], "tres de la ranura (el tope) y entonces la cola");
        assert_eq!(
            orden[tope + 1],
            2,
            "la de la ranura no se pierde al llegar al tope: va al final de la cola ({orden:?})"
        );
    }

    #[test]
    fn al_llegar_al_tope_la_de_la_ranura_va_al_final_de_la_cola() {
        let (c, mut t) = un_trabajador([10, 11]);
        t.pon_en_ranura(&c, Tarea::de_prueba(1));
        t.lifo_seguidas = MAX_LIFO_SEGUIDAS;
        assert_eq!(
            t.siguiente_local(&c).map(|t| t.id),
            Some(10),
            "con el tope alcanzado, sale el frente de la cola local"
        );
        assert!(t.ranura_lifo.is_none(), "la ranura queda vacía");
        assert_eq!(ids(&c.locales[0]), [11, 1], "la tarea de la ranura pasa al FINAL de la cola local");
    }

    #[test]
    fn sacar_de_la_cola_pone_a_cero_la_cuenta_de_la_ranura() {
        let (c, mut t) = un_trabajador([10]);
        t.lifo_seguidas = MAX_LIFO_SEGUIDAS;
        assert_eq!(t.siguiente_local(&c).map(|t| t.id), Some(10));
        assert_eq!(t.lifo_seguidas, 0, "una tarea que no sale de la ranura pone la cuenta de seguidas a 0");
        t.pon_en_ranura(&c, Tarea::de_prueba(1));
        assert_eq!(t.siguiente_local(&c).map(|t| t.id), Some(1), "después, la ranura vuelve a funcionar");
        assert_eq!(t.lifo_seguidas, 1);
    }

    #[test]
    fn una_cola_vacia_tambien_pone_a_cero_la_cuenta() {
        let (c, mut t) = un_trabajador([]);
        t.lifo_seguidas = 2;
        assert!(t.siguiente_local(&c).is_none());
        assert_eq!(
            t.lifo_seguidas, 0,
            "si la tarea no sale de la ranura (aunque no salga ninguna), la cuenta vuelve a 0"
        );
    }
}

mod equidad {
    use std::sync::Arc;

    use planificador::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};

    use super::comun::{ids, tareas};

    fn dos_trabajadores() -> (Arc<Compartido>, Trabajador) {
        (Compartido::nuevo(2), Trabajador::nuevo(0, 1))
    }

    #[test]
    fn sin_trabajo_en_ningun_sitio_devuelve_none() {
        let (c, mut t) = dos_trabajadores();
        assert!(t.busca_tarea(&c).is_none());
        assert_eq!(t.tick, 1, "cada llamada es una vuelta: suma 1 a tick");
    }

    #[test]
    fn lo_propio_va_antes_que_la_cola_global() {
        let (c, mut t) = dos_trabajadores();
        c.locales[0].lock().unwrap().extend(tareas([10]));
        c.inyector.lock().unwrap().extend(tareas([20]));
        assert_eq!(
            t.busca_tarea(&c).map(|t| t.id),
            Some(10),
            "en una vuelta normal, primero lo tuyo (siguiente_local)"
        );
        assert_eq!(t.busca_tarea(&c).map(|t| t.id), Some(20), "sin nada propio, la cola global");
    }

    #[test]
    fn con_la_cola_local_vacia_toma_un_lote_de_la_global() {
        let (c, mut t) = dos_trabajadores();
        c.inyector.lock().unwrap().extend(tareas(0..10));
        assert_eq!(t.busca_tarea(&c).map(|t| t.id), Some(0));
        assert_eq!(
            ids(&c.locales[0]),
            [1, 2, 3, 4, 5],
            "usa toma_lote_del_inyector: 10 / 2 trabajadores + 1 = 6 tareas, una para ya y cinco a tu cola"
        );
    }

    #[test]
    fn sin_nada_propio_ni_global_roba() {
        let (c, mut t) = dos_trabajadores();
        c.locales[1].lock().unwrap().extend(tareas([30, 31, 32]));
        assert_eq!(
            t.busca_tarea(&c).map(|t| t.id),
            Some(30),
            "si no hay nada tuyo ni en la cola global, roba (self.roba)"
        );
        assert_eq!(ids(&c.locales[0]), [31]);
        assert_eq!(ids(&c.locales[1]), [32]);
    }

    #[test]
    fn la_cola_global_no_espera_mas_de_intervalo_global_vueltas() {
        let (c, mut t) = dos_trabajadores();
        c.locales[0].lock().unwrap().extend(tareas(0..10));
        c.inyector.lock().unwrap().extend(tareas([999]));
        // La cola local nunca se vacía: cada tarea sondeada vuelve al final.
        for vuelta in 1..=INTERVALO_GLOBAL {
            let tarea = t.busca_tarea(&c).expect("hay trabajo de sobra");
            if tarea.id == 999 {
                assert!(
                    vuelta > 1,
                    "la primera vuelta es para lo tuyo; la cola global, cada {INTERVALO_GLOBAL} vueltas"
                );
                return;
            }
            c.empuja_local(0, tarea);
        }
        panic!(
            "en {INTERVALO_GLOBAL} vueltas con la cola local siempre llena, la tarea de la cola global no salió: \
             mira la cola global cuando tick % INTERVALO_GLOBAL == 0, aunque tengas trabajo propio"
        );
    }

    #[test]
    fn con_trabajo_propio_no_mira_la_cola_global_en_cada_vuelta() {
        let (c, mut t) = dos_trabajadores();
        c.locales[0].lock().unwrap().extend(tareas(0..10));
        c.inyector.lock().unwrap().extend(tareas(1000..1100));
        let mut de_la_global = 0;
        for _ in 0..2 * INTERVALO_GLOBAL {
            let tarea = t.busca_tarea(&c).expect("hay trabajo de sobra");
            if tarea.id >= 1000 {
                de_la_global += 1;
            } else {
                c.empuja_local(0, tarea);
            }
        }
        assert_eq!(
            de_la_global,
            2,
            "en {} vueltas con trabajo propio, la cola global se mira 2 veces, no en cada vuelta \
             (la cola global tiene un candado que comparten todos)",
            2 * INTERVALO_GLOBAL
        );
    }
}

mod aparca {
    use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    use futures::channel::{mpsc, oneshot};
    use futures::{SinkExt, StreamExt};

    use planificador::aparca::aparca;
    use planificador::robo::Compartido;
    use planificador::tarea::Tarea;
    use planificador::{Ejecutor, Robo, ceder};

    use super::comun::{con_limite, espera_a};

    #[test]
    fn no_se_duerme_si_ya_habia_trabajo_en_la_cola_global() {
        let c = Compartido::nuevo(2);
        // Alguien encoló sin avisar: cuando miró, aún no había nadie apuntado.
        c.inyector.lock().unwrap().push_back(Tarea::de_prueba(1));
        let c2 = Arc::clone(&c);
        con_limite(
            "aparca se durmió aunque ya había una tarea en la cola global: es un aviso perdido; \
             después de apuntarte, vuelve a mirar si hay trabajo antes de esperar",
            move || aparca(&c2),
        );
        assert_eq!(c.dormidos.load(Ordering::SeqCst), 0, "al salir de aparca, resta 1 a dormidos");
    }

    #[test]
    fn no_se_duerme_si_hay_trabajo_en_otra_cola_local() {
        let c = Compartido::nuevo(2);
        c.locales[1].lock().unwrap().push_back(Tarea::de_prueba(1));
        let c2 = Arc::clone(&c);
        con_limite(
            "aparca se durmió aunque otro trabajador tenía tareas que robar: usa compartido.hay_trabajo()",
            move || aparca(&c2),
        );
    }

    #[test]
    fn despierta_cuando_llega_trabajo() {
        let c = Compartido::nuevo(2);
        let c2 = Arc::clone(&c);
        let dormido = std::thread::spawn(move || aparca(&c2));
        espera_a("el trabajador no se apunta como dormido: suma 1 a compartido.dormidos", || {
            c.dormidos.load(Ordering::SeqCst) == 1 || dormido.is_finished()
        });
        assert!(!dormido.is_finished(), "sin trabajo ni apagado, aparca debe dormir, no volver enseguida");
        c.inyecta(Tarea::de_prueba(1)); // encola y avisa
        con_limite("llegó trabajo y el trabajador no despertó", move || dormido.join().unwrap());
        assert_eq!(c.dormidos.load(Ordering::SeqCst), 0, "al despertar, resta 1 a dormidos");
    }

    #[test]
    fn despierta_al_apagar() {
        let c = Compartido::nuevo(1);
        let c2 = Arc::clone(&c);
        let dormido = std::thread::spawn(move || aparca(&c2));
        espera_a("el trabajador no se apunta como dormido: suma 1 a compartido.dormidos", || {
            c.dormidos.load(Ordering::SeqCst) == 1 || dormido.is_finished()
        });
        c.pide_apagado();
        con_limite("se pidió el apagado y el trabajador siguió durmiendo: mira compartido.apagado()", move || {
            dormido.join().unwrap()
        });
    }

    // A partir de aquí, el ejecutor entero: tus cuatro piezas juntas.

    #[test]
    fn todo_junto_diez_mil_tareas_lanzadas_desde_fuera_corren_una_vez_cada_una() {
        let veces: Arc<Vec<AtomicU32>> = Arc::new((0..10_000).map(|_| AtomicU32::new(0)).collect());
        let veces2 = Arc::clone(&veces);
        let suma = con_limite("el ejecutor se colgó con diez mil tareas", move || {
            let ejecutor = Robo::nuevo(4);
            let manijas: Vec<_> = (0..10_000u64)
                .map(|i| {
                    let veces = Arc::clone(&veces2);
                    ejecutor.lanza(async move {
                        veces[i as usize].fetch_add(1, Ordering::Relaxed);
                        i
                    })
                })
                .collect();
            let suma = ejecutor.bloquea_en(async {
                let mut suma = 0;
                for m in manijas {
                    suma += m.await;
                }
                suma
            });
            ejecutor.apaga();
            suma
        });
        assert_eq!(suma, 9_999 * 10_000 / 2);
        let mal: Vec<usize> = (0..10_000).filter(|&i| veces[i].load(Ordering::Relaxed) != 1).collect();
        assert!(
            mal.is_empty(),
            "cada tarea debe correr exactamente una vez; estas no: {:?}",
            &mal[..mal.len().min(10)]
        );
    }

    /// Un nodo del árbol: lanza dos hijos (si le queda profundidad) y se
    /// cuenta. El último nodo en contarse avisa a quien espera.
    fn rama(ejecutor: Robo, profundidad: u32, cuenta: Arc<Cuenta>) -> impl std::future::Future<Output = ()> + Send {
        async move {
            if profundidad > 0 {
                for _ in 0..2 {
                    ejecutor.lanza_desligada(rama(ejecutor.clone(), profundidad - 1, Arc::clone(&cuenta)));
                }
            }
            cuenta.una_mas();
        }
    }

    struct Cuenta {
        hechas: AtomicUsize,
        esperadas: usize,
        aviso: Mutex<Option<oneshot::Sender<()>>>,
    }

    impl Cuenta {
        fn una_mas(&self) {
            if self.hechas.fetch_add(1, Ordering::Relaxed) + 1 == self.esperadas {
                if let Some(aviso) = self.aviso.lock().unwrap().take() {
                    let _ = aviso.send(());
                }
            }
        }
    }

    #[test]
    fn todo_junto_un_arbol_de_tareas_que_lanzan_tareas() {
        let esperadas = (1 << 14) - 1; // un árbol binario de profundidad 13
        let (aviso, fin) = oneshot::channel();
        let cuenta = Arc::new(Cuenta { hechas: AtomicUsize::new(0), esperadas, aviso: Mutex::new(Some(aviso)) });
        let cuenta2 = Arc::clone(&cuenta);
        con_limite("el ejecutor se colgó con un árbol de tareas", move || {
            let ejecutor = Robo::nuevo(4);
            ejecutor.lanza_desligada(rama(ejecutor.clone(), 13, cuenta2));
            ejecutor.bloquea_en(fin).unwrap();
            ejecutor.apaga();
        });
        assert_eq!(
            cuenta.hechas.load(Ordering::Relaxed),
            esperadas,
            "cada tarea del árbol corre una vez, ni más ni menos"
        );
    }

    #[test]
    fn todo_junto_una_pareja_que_se_despierta_sin_parar_no_deja_sin_turno_a_otra_tarea() {
        // Un solo trabajador. P y Q se pasan un mensaje sin parar: cada envío
        // despierta a la otra, que entra en la ranura LIFO. X espera en la
        // cola local y es la única que puede pararlas.
        let mensajes = con_limite(
            "X no llegó a correr: la pareja que se despierta sin parar se queda la ranura LIFO para siempre \
             (¿falta el tope en siguiente_local?)",
            || {
                let ejecutor = Robo::nuevo(1);
                let parar = Arc::new(AtomicBool::new(false));
                let mensajes = Arc::new(AtomicUsize::new(0));
                let (mut a_q, mut de_p) = mpsc::channel::<()>(1);
                let (mut a_p, mut de_q) = mpsc::channel::<()>(1);
                let (e, p, m) = (ejecutor.clone(), Arc::clone(&parar), Arc::clone(&mensajes));
                let pareja = ejecutor.lanza(async move {
                    // P va primero: lanza a X y empieza a enviar.
                    let p_tarea = e.lanza({
                        let (e, p, m) = (e.clone(), Arc::clone(&p), Arc::clone(&m));
                        async move {
                            let x = Arc::clone(&p);
                            e.lanza_desligada(async move { x.store(true, Ordering::Relaxed) });
                            let _ = a_q.send(()).await;
                            while de_q.next().await.is_some() && !p.load(Ordering::Relaxed) {
                                m.fetch_add(1, Ordering::Relaxed);
                                let _ = a_q.send(()).await;
                            }
                        }
                    });
                    // Q responde a cada mensaje con otro.
                    let q_tarea = e.lanza(async move {
                        while de_p.next().await.is_some() && !p.load(Ordering::Relaxed) {
                            m.fetch_add(1, Ordering::Relaxed);
                            let _ = a_p.send(()).await;
                        }
                    });
                    p_tarea.await;
                    q_tarea.await;
                });
                ejecutor.bloquea_en(pareja);
                ejecutor.apaga();
                mensajes.load(Ordering::Relaxed)
            },
        );
        assert!(mensajes > 0, "la pareja llegó a pasarse mensajes antes de que X la parase");
    }

    #[test]
    fn todo_junto_una_tarea_que_cede_sin_parar_no_deja_sin_turno_a_la_cola_global() {
        // Un solo trabajador, con una tarea que cede sin parar: su cola local
        // nunca se vacía. Las tareas lanzadas desde fuera van a la cola global.
        con_limite(
            "las tareas de la cola global no corrieron mientras otra cedía sin parar: \
             ¿miras la cola global cada INTERVALO_GLOBAL vueltas?",
            || {
                let ejecutor = Robo::nuevo(1);
                let hechas = Arc::new(AtomicUsize::new(0));
                let girando = Arc::new(AtomicBool::new(false));
                let (h, g) = (Arc::clone(&hechas), Arc::clone(&girando));
                let gira = ejecutor.lanza(async move {
                    g.store(true, Ordering::Relaxed);
                    while h.load(Ordering::Relaxed) < 100 {
                        ceder().await;
                    }
                });
                espera_a("la tarea que cede no llegó a arrancar", || girando.load(Ordering::Relaxed));
                for _ in 0..100 {
                    let h = Arc::clone(&hechas);
                    ejecutor.lanza_desligada(async move {
                        h.fetch_add(1, Ordering::Relaxed);
                    });
                }
                ejecutor.bloquea_en(gira);
                ejecutor.apaga();
            },
        );
    }

    #[test]
    fn todo_junto_un_aviso_desde_fuera_despierta_a_trabajadores_dormidos() {
        con_limite("una tarea despertada desde fuera con todos los trabajadores dormidos no volvió a correr", || {
            let ejecutor = Robo::nuevo(2);
            for ronda in 0..20u32 {
                let (tx, rx) = oneshot::channel::<u32>();
                let manija = ejecutor.lanza(async move { rx.await.unwrap() + 1 });
                espera_a("los dos trabajadores deberían acabar durmiendo", || ejecutor.dormidos() == 2);
                tx.send(ronda).unwrap(); // despierta a la tarea desde este hilo, que no es un trabajador
                assert_eq!(ejecutor.bloquea_en(manija), ronda + 1);
            }
            ejecutor.apaga();
        });
    }
}
