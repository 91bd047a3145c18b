//! Pruebas del capítulo 19. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/19-probar-la-concurrencia`) y contra la solución
//! (`solutions/19-probar-la-concurrencia`). Un módulo por ejercicio.
//!
//! Todas son deterministas: loom recorre todos los entrelazados (con una
//! cota de expulsiones para que acabe en menos de un segundo), shuttle usa
//! semillas fijas y turmoil simula la red con su propio reloj. Si algo se
//! bloquea, el explorador lo detecta y lo dice («deadlock»): ninguna prueba
//! se queda colgada.

use std::panic::{self, AssertUnwindSafe};

/// Ejecuta `f` y, si entra en pánico, vuelve a lanzar el pánico con
/// `que` delante, para que el mensaje diga qué se estaba probando.
fn con_contexto<R>(que: &str, f: impl FnOnce() -> R) -> R {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(carga) => {
            let mensaje = carga
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| carga.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let pista = if mensaje.contains("deadlock") {
                "\n(«deadlock»: todos los hilos quedaron esperando; alguien se durmió sin que nadie lo fuera a despertar)"
            } else if mensaje.contains("not yet implemented") {
                "\n(todavía sin resolver)"
            } else if mensaje.contains("maximum number of branches") || mensaje.contains("exceeded max_steps") {
                "\n(demasiados pasos: ¿un bucle que da vueltas en vez de dormir?)"
            } else {
                ""
            };
            panic!("{que}: {}{pista}", mensaje.lines().take(3).collect::<Vec<_>>().join("\n"));
        }
    }
}

/// Ejercicio 1. Propiedades, cada una con su prueba:
///
/// 1. ningún aviso se pierde con un productor y un trabajador
///    (`ningun_aviso_se_pierde`);
/// 2. ni con dos trabajadores y dos tareas (`dos_trabajadores_dos_tareas`);
/// 3. `aparca` vuelve solo con trabajo o apagado, no con un aviso sin nada
///    (`un_aviso_sin_trabajo_no_basta`);
/// 4. el apagado despierta a quien duerme (`el_apagado_despierta`);
/// 5. quien duerme no da vueltas: `hay_trabajo` se mira pocas veces
///    (`duerme_sin_dar_vueltas`), y dos que esperan sin trabajo no se pasan
///    el turno el uno al otro para siempre (`dos_dormidos_y_un_apagado`);
/// 6. al volver, `dormidos` queda como estaba (`dormidos_vuelve_a_cero`);
/// 7. `avisa` sin nadie dormido no toma el candado (`avisa_sin_dormidos_no_toma_el_candado`);
/// 8. un aviso despierta a uno, no a todos: con dos dormidos y una tarea, el
///    otro sigue durmiendo hasta el apagado (`un_aviso_despierta_a_uno`).
mod aparca {
    use std::sync::Arc;
    use std::sync::atomic::Ordering as Std;

    use loom::sync::atomic::Ordering;
    use probar::aparca::Dormitorio;

    use super::con_contexto;

    /// Recorre los entrelazados con a lo sumo `cota` expulsiones.
    fn modelo(que: &str, cota: usize, f: impl Fn() + Send + Sync + 'static) {
        let mut builder = loom::model::Builder::new();
        builder.preemption_bound = Some(cota);
        // Una ejecución correcta da muy pocos pasos; quien da vueltas llega
        // enseguida a este tope y loom lo dice, en vez de explorar sin fin.
        builder.max_branches = 300;
        con_contexto(que, || builder.check(f));
    }

    /// El trabajador: hace `n` tareas, aparcando cuando no encuentra.
    fn trabajador(d: &Dormitorio, n: usize) {
        let mut hechas = 0;
        while hechas < n {
            if d.toma() {
                hechas += 1;
            } else {
                d.aparca();
            }
        }
    }

    #[test]
    fn ningun_aviso_se_pierde() {
        modelo("un productor y un trabajador", 3, || {
            let d = Arc::new(Dormitorio::nuevo());
            let p = Arc::clone(&d);
            let productor = loom::thread::spawn(move || p.encola());
            trabajador(&d, 1);
            productor.join().unwrap();
        });
    }

    #[test]
    fn dos_trabajadores_dos_tareas() {
        modelo("dos trabajadores, dos tareas", 1, || {
            let d = Arc::new(Dormitorio::nuevo());
            let otro = {
                let d = Arc::clone(&d);
                loom::thread::spawn(move || trabajador(&d, 1))
            };
            let p = Arc::clone(&d);
            let productor = loom::thread::spawn(move || {
                p.encola();
                p.encola();
            });
            trabajador(&d, 1);
            productor.join().unwrap();
            otro.join().unwrap();
        });
    }

    #[test]
    fn un_aviso_sin_trabajo_no_basta() {
        modelo("un aviso sin trabajo y luego una tarea", 3, || {
            let d = Arc::new(Dormitorio::nuevo());
            let p = Arc::clone(&d);
            let productor = loom::thread::spawn(move || {
                p.avisa(); // un aviso sin nada en la cola
                p.encola();
            });
            d.aparca();
            assert!(
                d.pendientes.load(Ordering::SeqCst) > 0,
                "aparca volvió sin trabajo y sin apagado: un aviso no basta, hay que volver a mirar (while, no if)"
            );
            productor.join().unwrap();
        });
    }

    #[test]
    fn el_apagado_despierta() {
        modelo("un trabajador dormido y un apagado", 3, || {
            let d = Arc::new(Dormitorio::nuevo());
            let p = Arc::clone(&d);
            let apagador = loom::thread::spawn(move || p.apaga());
            d.aparca();
            assert!(d.apagado(), "aparca volvió sin trabajo y sin apagado");
            apagador.join().unwrap();
        });
    }

    #[test]
    fn duerme_sin_dar_vueltas() {
        modelo("un trabajador que espera una tarea", 3, || {
            let d = Arc::new(Dormitorio::nuevo());
            let p = Arc::clone(&d);
            let productor = loom::thread::spawn(move || p.encola());
            trabajador(&d, 1);
            productor.join().unwrap();
            let miradas = d.miradas.load(Std::SeqCst);
            assert!(
                miradas <= 3,
                "hay_trabajo se miró {miradas} veces para una sola tarea: quien duerme no mira; \
                 espera en el despertador en vez de dar vueltas"
            );
        });
    }

    #[test]
    fn dos_dormidos_y_un_apagado() {
        modelo("dos trabajadores sin trabajo y un apagado", 2, || {
            let d = Arc::new(Dormitorio::nuevo());
            let otro = {
                let d = Arc::clone(&d);
                loom::thread::spawn(move || d.aparca())
            };
            let p = Arc::clone(&d);
            let apagador = loom::thread::spawn(move || p.apaga());
            d.aparca();
            otro.join().unwrap();
            apagador.join().unwrap();
        });
    }

    #[test]
    fn dormidos_vuelve_a_cero() {
        modelo("aparcar y volver", 3, || {
            let d = Arc::new(Dormitorio::nuevo());
            let p = Arc::clone(&d);
            let productor = loom::thread::spawn(move || p.encola());
            trabajador(&d, 1);
            productor.join().unwrap();
            let dormidos = d.dormidos.load(Ordering::SeqCst);
            assert_eq!(dormidos, 0, "tras volver de aparca, dormidos debe quedar como estaba");
        });
    }

    #[test]
    fn un_aviso_despierta_a_uno() {
        modelo("dos dormidos y una tarea", 2, || {
            use loom::sync::atomic::AtomicUsize;
            let d = Arc::new(Dormitorio::nuevo());
            // Cuántos volvieron de aparca sin que se hubiera apagado (es decir, por el aviso).
            let por_el_aviso = Arc::new(AtomicUsize::new(0));
            let vueltas = Arc::new(AtomicUsize::new(0));
            let dormidos: Vec<_> = (0..2)
                .map(|_| {
                    let (d, por_el_aviso, vueltas) = (Arc::clone(&d), Arc::clone(&por_el_aviso), Arc::clone(&vueltas));
                    loom::thread::spawn(move || {
                        d.aparca();
                        if !d.apagado() {
                            por_el_aviso.fetch_add(1, Ordering::SeqCst);
                        }
                        vueltas.fetch_add(1, Ordering::SeqCst);
                    })
                })
                .collect();
            // Los dos apuntados y, tras pasar por el candado, los dos en su `wait`.
            while d.dormidos.load(Ordering::SeqCst) < 2 {
                loom::thread::yield_now();
            }
            drop(d.candado.lock().unwrap());
            d.encola();
            while vueltas.load(Ordering::SeqCst) == 0 {
                loom::thread::yield_now();
            }
            d.apaga();
            for h in dormidos {
                h.join().unwrap();
            }
            assert_eq!(
                por_el_aviso.load(Ordering::SeqCst),
                1,
                "una tarea y dos dormidos: un aviso despierta a uno (notify_one); el otro sigue durmiendo hasta el \
                 apagado. Despertarlos a todos hace que corran a por una sola tarea"
            );
        });
    }

    #[test]
    fn avisa_sin_dormidos_no_toma_el_candado() {
        modelo("avisar sin nadie dormido", 1, || {
            let d = Dormitorio::nuevo();
            let candado = d.candado.lock().unwrap();
            // Con el candado tomado por otro y nadie dormido, avisa debe
            // volver sin esperar: si lo tomara, loom vería un bloqueo.
            d.avisa();
            drop(candado);
            assert_eq!(
                d.dormidos.load(Ordering::SeqCst),
                0,
                "avisar sin nadie dormido no cambia `dormidos`: sigue en 0"
            );
        });
    }
}

/// Ejercicio 2. Propiedades, cada una con su prueba:
///
/// 1. se lleva la mitad hacia arriba, las más antiguas, en orden, al final
///    del ladrón, y devuelve cuántas (`la_mitad_hacia_arriba_y_las_mas_antiguas`);
/// 2. con la víctima vacía devuelve 0 sin tocar al ladrón (`de_una_cola_vacia_nada`);
/// 3. dos que se roban el uno al otro a la vez no se bloquean, y no se
///    pierde ni se duplica nada (`dos_que_se_roban_a_la_vez`);
/// 4. el dueño puede sacar mientras le roban: contar y sacar bajo el mismo
///    candado (`el_dueno_saca_mientras_le_roban`);
/// 5. lo devuelto es lo que se llevó, también con otros a la vez
///    (`lo_devuelto_es_lo_que_se_llevo`);
/// 6. con otros a la vez, cada robo se lleva la mitad de lo que la víctima
///    tenía en ese momento, no de lo que tenía cuando contó: «nada se pierde
///    ni se duplica» no basta, también cuentan las cantidades
///    (`cada_robo_es_la_mitad_de_lo_que_habia`).
mod roba {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use probar::roba::{Cola, roba_mitad};
    use shuttle::scheduler::{PctScheduler, RandomScheduler};

    use super::con_contexto;

    /// 500 planificaciones al azar y 500 de PCT, con semillas fijas: cazan las
    /// respuestas incorrectas conocidas en las primeras, y así editar y probar
    /// sigue por debajo de un segundo.
    fn explora(que: &str, f: impl Fn() + Send + Sync + 'static) {
        let f = Arc::new(f);
        let mut config = shuttle::Config::new();
        config.silence_warnings = true;
        config.failure_persistence = shuttle::FailurePersistence::None;
        let g = Arc::clone(&f);
        con_contexto(&format!("{que} (planificaciones al azar, semilla 19)"), || {
            shuttle::Runner::new(RandomScheduler::new_from_seed(19, 500), config.clone()).run(move || g())
        });
        con_contexto(&format!("{que} (PCT de profundidad 3, semilla 19)"), || {
            shuttle::Runner::new(PctScheduler::new_from_seed(19, 3, 500), config).run(move || f())
        });
    }

    /// Una sola ejecución, sin nada a la vez.
    fn una_vez(f: impl Fn() + Send + Sync + 'static) {
        con_contexto("un solo hilo", || shuttle::check_random(f, 1));
    }

    fn todas(colas: &[&Cola]) -> Vec<u32> {
        let mut v: Vec<u32> = colas.iter().flat_map(|c| c.contenido()).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn la_mitad_hacia_arriba_y_las_mas_antiguas() {
        una_vez(|| {
            let victima = Cola::con([1, 2, 3, 4, 5]);
            let ladron = Cola::con([9]);
            let n = roba_mitad(&victima, &ladron);
            assert_eq!(n, 3, "de 5 tareas, la mitad hacia arriba son 3");
            assert_eq!(victima.contenido(), vec![4, 5], "se quedan las más nuevas (las del final)");
            assert_eq!(ladron.contenido(), vec![9, 1, 2, 3], "las robadas van al final del ladrón, en orden");
            let sola = Cola::con([7]);
            assert_eq!(roba_mitad(&sola, &ladron), 1, "de 1 tarea se lleva 1");
            assert_eq!(
                sola.contenido(),
                Vec::<u32>::new(),
                "de una cola de 1 tarea se lleva esa: la víctima se queda vacía"
            );
            let cuatro = Cola::con([1, 2, 3, 4]);
            let otro = Cola::default();
            assert_eq!(roba_mitad(&cuatro, &otro), 2, "de 4 tareas, 2");
            assert_eq!(otro.contenido(), vec![1, 2], "de 4 tareas se lleva las 2 más antiguas, 1 y 2, en orden");
        });
    }

    #[test]
    fn de_una_cola_vacia_nada() {
        una_vez(|| {
            let victima = Cola::default();
            let ladron = Cola::con([3, 1]);
            assert_eq!(roba_mitad(&victima, &ladron), 0, "de una víctima vacía no se roba nada: 0");
            assert_eq!(ladron.contenido(), vec![3, 1], "robar a una cola vacía no toca al ladrón");
        });
    }

    #[test]
    fn dos_que_se_roban_a_la_vez() {
        explora("dos trabajadores se roban el uno al otro", || {
            let a = Arc::new(Cola::con([1, 2, 3]));
            let b = Arc::new(Cola::con([4, 5]));
            let (a2, b2) = (Arc::clone(&a), Arc::clone(&b));
            let h = shuttle::thread::spawn(move || roba_mitad(&a2, &b2));
            roba_mitad(&b, &a);
            h.join().unwrap();
            assert_eq!(todas(&[&a, &b]), vec![1, 2, 3, 4, 5], "se perdió o se duplicó alguna tarea");
        });
    }

    #[test]
    fn el_dueno_saca_mientras_le_roban() {
        explora("el dueño saca mientras otro le roba", || {
            let victima = Arc::new(Cola::con([1, 2, 3, 4]));
            let ladron = Arc::new(Cola::default());
            let (v2, l2) = (Arc::clone(&victima), Arc::clone(&ladron));
            let h = shuttle::thread::spawn(move || roba_mitad(&v2, &l2));
            let mut sacadas = Vec::new();
            for _ in 0..3 {
                sacadas.extend(victima.saca());
            }
            h.join().unwrap();
            let mut vistas: Vec<u32> = sacadas.clone();
            vistas.extend(victima.contenido());
            vistas.extend(ladron.contenido());
            vistas.sort_unstable();
            assert_eq!(vistas, vec![1, 2, 3, 4], "se perdió o se duplicó alguna tarea (sacadas: {sacadas:?})");
        });
    }

    #[test]
    fn lo_devuelto_es_lo_que_se_llevo() {
        explora("dos ladrones a la vez contra una víctima que recibe", || {
            let victima = Arc::new(Cola::con([1, 2, 3, 4, 5, 6]));
            let ladrones: Vec<Arc<Cola>> = (0..2).map(|_| Arc::new(Cola::default())).collect();
            let hilos: Vec<_> = ladrones
                .iter()
                .map(|l| {
                    let (v, l) = (Arc::clone(&victima), Arc::clone(l));
                    shuttle::thread::spawn(move || roba_mitad(&v, &l))
                })
                .collect();
            victima.empuja(7);
            for (h, l) in hilos.into_iter().zip(&ladrones) {
                let n = h.join().unwrap();
                assert_eq!(n, l.contenido().len(), "roba_mitad devolvió {n} pero el ladrón tiene otra cosa");
            }
            let unicas: BTreeSet<u32> = todas(&[&victima, &ladrones[0], &ladrones[1]]).into_iter().collect();
            assert_eq!(unicas.len(), 7, "se perdió o se duplicó alguna tarea");
        });
    }

    #[test]
    fn cada_robo_es_la_mitad_de_lo_que_habia() {
        explora("dos ladrones a la vez contra una víctima que recibe", || {
            let victima = Arc::new(Cola::con([1, 2, 3, 4, 5, 6]));
            let ladrones: Vec<Arc<Cola>> = (0..2).map(|_| Arc::new(Cola::default())).collect();
            let hilos: Vec<_> = ladrones
                .iter()
                .map(|l| {
                    let (v, l) = (Arc::clone(&victima), Arc::clone(l));
                    shuttle::thread::spawn(move || roba_mitad(&v, &l))
                })
                .collect();
            victima.empuja(7);
            let mut robadas: Vec<usize> = hilos.into_iter().map(|h| h.join().unwrap()).collect();
            robadas.sort_unstable();
            // Cada robo, entero bajo el candado de la víctima: el primero se lleva 3 de 6 (o 4 de 7,
            // si el 7 llegó antes) y el segundo, 2 de los 3 o 4 que quedan.
            assert!(
                robadas == [2, 3] || robadas == [2, 4],
                "dos robos de la mitad seguidos se llevan 3 y 2 (o 4 y 2), y estos se llevaron {robadas:?} (quedan \
                 {:?}): cuenta y saca bajo el mismo candado, o los dos ladrones cuentan la misma mitad",
                victima.contenido()
            );
        });
    }
}

/// Ejercicio 3. Propiedades, cada una con su prueba:
///
/// 1. `tope` dobla desde `espera_inicial`, con tope, sin desbordar, con
///    valores que no son milisegundos enteros (`el_tope_dobla_con_tope`,
///    `el_tope_no_desborda`);
/// 2. `espera` es al azar hasta el tope, un número del generador por espera:
///    con una semilla, siempre las mismas (`la_espera_es_al_azar_hasta_el_tope`);
/// 3. con la red sana, una petición y el saldo (`con_la_red_sana_una_peticion`);
/// 4. una respuesta que llega tarde no ingresa dos veces: el mismo `id` en
///    cada intento (`una_respuesta_tardia_no_ingresa_dos_veces`);
/// 5. una respuesta de otro ingreso se ignora, y ni alarga ni acorta el
///    intento en curso (`ignora_respuestas_de_otro_ingreso`,
///    `una_respuesta_ajena_no_alarga_ni_acorta_el_intento`);
/// 6. entre intentos se espera `plazo + espera(fallos)`, exactamente: con una
///    semilla, los instantes de cada petición se saben
///    (`entre_intentos_espera_lo_justo`);
/// 7. se rinde tras `intentos` intentos, ni uno más ni uno menos
///    (`se_rinde_tras_los_intentos`);
/// 8. una partición larga no provoca una tormenta (un número exacto de
///    peticiones para la semilla), al repararse el ingreso llega
///    (`una_particion_no_provoca_una_tormenta`), y dos clientes que fallan a
///    la vez no reintentan a la vez
///    (`dos_clientes_que_fallan_juntos_no_reintentan_juntos`).
mod reintenta {
    use std::net::{IpAddr, Ipv4Addr};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use probar::azar::Azar;
    use probar::reintenta::{Agotado, Politica, espera, ingresa, tope};
    use probar::servidor::{PUERTO, Registro, servidor};
    use turmoil::net::UdpSocket;

    use super::con_contexto;

    const MS: Duration = Duration::from_millis(1);

    /// Falla con `mensaje` si las dos duraciones no son iguales, y las escribe
    /// como el libro («10 ms», no «10ms»).
    #[track_caller]
    fn misma_duracion(obtenida: Duration, esperada: Duration, mensaje: &str) {
        assert!(
            obtenida == esperada,
            "{mensaje} (esperaba {}, no {})",
            medidas::duracion(esperada),
            medidas::duracion(obtenida)
        );
    }

    /// La semilla de los clientes de estas pruebas.
    const SEMILLA: u64 = 11;

    fn politica() -> Politica {
        Politica { plazo: 450 * MS, espera_inicial: 50 * MS, espera_max: 2_000 * MS, intentos: 5 }
    }

    /// Una red con latencia fija y un servidor; `cliente` recibe el registro.
    fn simula<F, Fut>(que: &str, latencia: Duration, ajusta: impl FnOnce(&mut turmoil::Sim<'_>), cliente: F) -> Registro
    where
        F: FnOnce(UdpSocket) -> Fut + 'static,
        Fut: Future<Output = Result<(), String>> + 'static,
    {
        let registro = Arc::new(Mutex::new(Registro::default()));
        con_contexto(que, || {
            let mut sim = turmoil::Builder::new()
                .min_message_latency(latencia)
                .max_message_latency(latencia)
                .simulation_duration(Duration::from_secs(120))
                .rng_seed(19)
                .build();
            let r = Arc::clone(&registro);
            sim.host("servidor", move || servidor(Arc::clone(&r)));
            sim.client("cliente", async move {
                let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
                cliente(socket).await.map_err(|e| e.into())
            });
            ajusta(&mut sim);
            if let Err(e) = sim.run() {
                panic!("{e}");
            }
        });
        registro.lock().unwrap().clone()
    }

    fn instantes(r: &Registro) -> Vec<u128> {
        r.peticiones.iter().map(|(t, _)| t.as_millis()).collect()
    }

    #[test]
    fn el_tope_dobla_con_tope() {
        let p = Politica { plazo: 100 * MS, espera_inicial: 100 * MS, espera_max: 1_000 * MS, intentos: 5 };
        con_contexto("tope", || {
            let topes: Vec<u128> = (1..=6).map(|f| tope(&p, f).as_millis()).collect();
            assert_eq!(topes, vec![100, 200, 400, 800, 1_000, 1_000], "el tope tras los fallos 1 a 6");
            let fina = Politica {
                espera_inicial: Duration::from_micros(1_500),
                espera_max: Duration::from_micros(5_000),
                ..p
            };
            misma_duracion(tope(&fina, 2), Duration::from_micros(3_000), "1,5 ms doblados son 3 ms");
            misma_duracion(tope(&fina, 3), Duration::from_micros(5_000), "6 ms pasan del tope de 5 ms");
            let impar = Politica {
                espera_inicial: Duration::from_nanos(333_333_333),
                espera_max: Duration::from_secs(10),
                ..p
            };
            misma_duracion(tope(&impar, 3), Duration::from_nanos(1_333_333_332), "0,333... s por 4");
        });
    }

    #[test]
    fn el_tope_no_desborda() {
        let p = Politica { plazo: 100 * MS, espera_inicial: 100 * MS, espera_max: 30_000 * MS, intentos: 5 };
        con_contexto("tope con muchos fallos", || {
            for fallos in [20, 31, 32, 33, 64, 65, 1_000, u32::MAX] {
                misma_duracion(tope(&p, fallos), 30_000 * MS, &format!("tras {fallos} fallos, el tope"));
            }
            let enorme = Politica { espera_inicial: Duration::from_secs(u64::MAX / 2), espera_max: Duration::MAX, ..p };
            misma_duracion(tope(&enorme, 3), Duration::MAX, "doblar una espera enorme satura en vez de desbordar");
        });
    }

    #[test]
    fn la_espera_es_al_azar_hasta_el_tope() {
        let p = Politica { plazo: 100 * MS, espera_inicial: 100 * MS, espera_max: 1_000 * MS, intentos: 5 };
        con_contexto("espera", || {
            let mut azar = Azar::con_semilla(SEMILLA);
            let esperas: Vec<u128> = (1..=8).map(|f| espera(&p, f, &mut azar).as_millis()).collect();
            // Los topes son 100, 200, 400, 800 y 1 000 ms; cada espera es un número al azar entre 0 y su tope.
            assert_eq!(
                esperas,
                vec![70, 191, 370, 156, 67, 888, 325, 797],
                "las esperas tras los fallos 1 a 8 con la semilla {SEMILLA}: cada una es azar.hasta(tope(...)), con un \
                 solo número del generador por espera. Sin azar serían los topes (100, 200, 400...), y todos los \
                 clientes que fallaron juntos volverían juntos"
            );
            let mut otro = Azar::con_semilla(SEMILLA);
            let repetidas: Vec<u128> = (1..=8).map(|f| espera(&p, f, &mut otro).as_millis()).collect();
            assert_eq!(repetidas, esperas, "la misma semilla da las mismas esperas");
            let mut cero = Azar::con_semilla(SEMILLA);
            let nula = Politica { espera_inicial: Duration::ZERO, ..p };
            misma_duracion(espera(&nula, 3, &mut cero), Duration::ZERO, "con un tope de cero, la espera es cero");
        });
    }

    #[test]
    fn con_la_red_sana_una_peticion() {
        let r = simula(
            "una red sana",
            10 * MS,
            |_| {},
            |s| async move {
                let mut azar = Azar::con_semilla(SEMILLA);
                let saldo = ingresa(&s, 1, 10, &politica(), &mut azar).await.map_err(|e| format!("{e:?}"))?;
                assert_eq!(saldo, 10, "con la red sana, el servidor contesta el saldo tras el primer ingreso: 10");
                let saldo = ingresa(&s, 2, 5, &politica(), &mut azar).await.map_err(|e| format!("{e:?}"))?;
                assert_eq!(
                    saldo, 15,
                    "con la red sana, el servidor contesta el saldo tras el segundo ingreso: 10 + 5 = 15"
                );
                Ok(())
            },
        );
        assert_eq!(r.peticiones.len(), 2, "con la red sana, una petición por ingreso: {:?}", r.peticiones);
    }

    #[test]
    fn una_respuesta_tardia_no_ingresa_dos_veces() {
        // 300 ms por mensaje: la ida y vuelta (600 ms) pasa del plazo (450 ms).
        let r = simula(
            "una red lenta",
            300 * MS,
            |_| {},
            |s| async move {
                let mut azar = Azar::con_semilla(SEMILLA);
                let saldo = ingresa(&s, 1, 10, &politica(), &mut azar).await.map_err(|e| format!("{e:?}"))?;
                assert_eq!(saldo, 10, "el saldo tras el primer ingreso");
                // Que lleguen al servidor los reintentos que aún viajan.
                tokio::time::sleep(Duration::from_secs(2)).await;
                Ok(())
            },
        );
        assert!(r.peticiones.len() >= 2, "la respuesta tardaba más que el plazo: debías reintentar");
        assert_eq!(r.saldo, 10, "el servidor ingresó {} en vez de 10: ¿cambiaste el id al reintentar?", r.saldo);
        assert!(r.peticiones.iter().all(|&(_, id)| id == 1), "cada intento lleva el mismo id: {:?}", r.peticiones);
    }

    #[test]
    fn ignora_respuestas_de_otro_ingreso() {
        let r = simula(
            "dos ingresos seguidos en una red lenta",
            300 * MS,
            |_| {},
            |s| async move {
                let mut azar = Azar::con_semilla(SEMILLA);
                let primero = ingresa(&s, 1, 10, &politica(), &mut azar).await.map_err(|e| format!("{e:?}"))?;
                let segundo = ingresa(&s, 2, 10, &politica(), &mut azar).await.map_err(|e| format!("{e:?}"))?;
                assert_eq!(primero, 10, "el primer ingreso devuelve el saldo que contestó el servidor: 10");
                assert_eq!(
                    segundo, 20,
                    "el segundo ingreso devolvió {segundo}: es la respuesta tardía del primero; mira el id de la respuesta"
                );
                Ok(())
            },
        );
        assert_eq!(
            r.saldo, 20,
            "el servidor ingresó {} en total en vez de 20: cada ingreso debe llegar una sola vez, con el mismo id en \
             todos sus intentos",
            r.saldo
        );
    }

    /// El id de un ingreso que no es el de la prueba.
    const AJENO: u64 = 999;

    /// Un servidor que contesta a cada petición, al momento, con la respuesta
    /// de OTRO ingreso (el id `AJENO`), y nunca con la buena. Apunta cuándo le
    /// llega cada petición.
    async fn servidor_que_contesta_otra_cosa(registro: Arc<Mutex<Registro>>) -> turmoil::Result {
        let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), PUERTO)).await?;
        let mut buf = [0u8; 128];
        loop {
            let (_, de) = socket.recv_from(&mut buf).await?;
            registro.lock().unwrap().peticiones.push((turmoil::sim_elapsed().unwrap_or_default(), 7));
            socket.send_to(format!("hecho {AJENO} 5").as_bytes(), de).await?;
        }
    }

    #[test]
    fn una_respuesta_ajena_no_alarga_ni_acorta_el_intento() {
        let p = Politica { plazo: 100 * MS, espera_inicial: 150 * MS, espera_max: 500 * MS, intentos: 3 };
        let registro = Arc::new(Mutex::new(Registro::default()));
        con_contexto("respuestas de otro ingreso a mitad de cada intento", || {
            let mut sim = turmoil::Builder::new()
                .min_message_latency(10 * MS)
                .max_message_latency(10 * MS)
                .simulation_duration(Duration::from_secs(60))
                .rng_seed(19)
                .build();
            let r = Arc::clone(&registro);
            sim.host("servidor", move || servidor_que_contesta_otra_cosa(Arc::clone(&r)));
            sim.client("cliente", async move {
                let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
                let mut azar = Azar::con_semilla(SEMILLA);
                assert_eq!(
                    ingresa(&socket, 7, 10, &p, &mut azar).await,
                    Err(Agotado),
                    "nunca llega la respuesta buena"
                );
                Ok(())
            });
            if let Err(e) = sim.run() {
                panic!("{e}");
            }
        });
        // Cada intento: la petición llega a los +10 ms y la respuesta ajena vuelve a los +20,
        // en mitad del plazo de 100 ms. El siguiente intento sale al vencer ese plazo (ni antes
        // ni después) más la espera al azar de la semilla (67 y 24 ms).
        assert_eq!(
            instantes(&registro.lock().unwrap()),
            vec![10, 217, 341],
            "cuándo llegó cada intento al servidor (en ms). Una respuesta ajena no alarga el plazo del intento (nada \
             de un timeout nuevo por cada recv) ni lo acorta (no reintentes al verla): el plazo es un instante fijo, \
             timeout_at"
        );
    }

    #[test]
    fn entre_intentos_espera_lo_justo() {
        let p = Politica { plazo: 100 * MS, espera_inicial: 150 * MS, espera_max: 500 * MS, intentos: 5 };
        let r = simula(
            "las respuestas no vuelven",
            10 * MS,
            |sim| sim.partition_oneway("servidor", "cliente"),
            move |s| async move {
                let mut azar = Azar::con_semilla(SEMILLA);
                assert_eq!(ingresa(&s, 7, 10, &p, &mut azar).await, Err(Agotado), "sin respuestas, Err(Agotado)");
                Ok(())
            },
        );
        // Envío en t, llega en t + 10 ms; el siguiente sale plazo + espera después. Con la
        // semilla, las esperas son 67, 24, 428 y 201 ms (los topes, 150, 300, 500 y 500).
        let esperado = vec![10, 217, 341, 869, 1_170];
        assert_eq!(instantes(&r), esperado, "cuándo llegó cada intento al servidor (en ms)");
    }

    #[test]
    fn se_rinde_tras_los_intentos() {
        for intentos in [1, 2, 4] {
            let p = Politica { intentos, ..politica() };
            let r = simula(
                &format!("sin respuestas y {intentos} intentos"),
                10 * MS,
                |sim| sim.partition_oneway("servidor", "cliente"),
                move |s| async move {
                    let inicio = tokio::time::Instant::now();
                    let mut azar = Azar::con_semilla(SEMILLA);
                    assert_eq!(ingresa(&s, 3, 10, &p, &mut azar).await, Err(Agotado), "sin respuestas, Err(Agotado)");
                    let tardo = inicio.elapsed();
                    assert!(
                        tardo >= p.plazo * intentos,
                        "se rindió a los {}: cada intento espera su plazo",
                        medidas::duracion(tardo)
                    );
                    Ok(())
                },
            );
            assert_eq!(r.peticiones.len(), intentos as usize, "con intentos = {intentos}, peticiones que llegaron");
        }
    }

    /// Lo que acabó haciendo un cliente: su resultado y cuándo acabó.
    type Hecho = (Result<u64, Agotado>, Duration);

    /// Diez segundos de red partida (el servidor no puede contestar) con
    /// `clientes` clientes que empiezan a la vez, cada uno con su semilla; al
    /// repararse, cada uno acaba su ingreso. Devuelve el registro del servidor
    /// y, por cliente, su resultado y cuándo acabó.
    fn particion(semillas: &[u64]) -> (Registro, Vec<Option<Hecho>>) {
        let p = Politica { plazo: 100 * MS, espera_inicial: 100 * MS, espera_max: 2_000 * MS, intentos: 40 };
        let hechos: Arc<Mutex<Vec<Option<Hecho>>>> = Arc::new(Mutex::new(vec![None; semillas.len()]));
        let registro = Arc::new(Mutex::new(Registro::default()));
        con_contexto("diez segundos sin respuestas", || {
            let mut sim = turmoil::Builder::new()
                .min_message_latency(10 * MS)
                .max_message_latency(10 * MS)
                .simulation_duration(Duration::from_secs(120))
                .tick_duration(10 * MS)
                .rng_seed(19)
                .build();
            let r = Arc::clone(&registro);
            sim.host("servidor", move || servidor(Arc::clone(&r)));
            for (i, &semilla) in semillas.iter().enumerate() {
                let h = Arc::clone(&hechos);
                sim.client(format!("cliente-{i}"), async move {
                    let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
                    let mut azar = Azar::con_semilla(semilla);
                    let saldo = ingresa(&socket, i as u64 + 1, 10, &p, &mut azar).await;
                    h.lock().unwrap()[i] = Some((saldo, turmoil::sim_elapsed().unwrap_or_default()));
                    Ok(())
                });
                sim.partition_oneway("servidor", format!("cliente-{i}"));
            }
            let mut reparada = false;
            while !sim.step().unwrap() {
                if !reparada && sim.elapsed() >= Duration::from_secs(10) {
                    for i in 0..semillas.len() {
                        sim.repair_oneway("servidor", format!("cliente-{i}"));
                    }
                    reparada = true;
                }
            }
        });
        let r = registro.lock().unwrap().clone();
        let h = hechos.lock().unwrap().clone();
        (r, h)
    }

    #[test]
    fn una_particion_no_provoca_una_tormenta() {
        let (r, hechos) = particion(&[SEMILLA]);
        let durante = r.peticiones.iter().filter(|(t, _)| *t < Duration::from_secs(10)).count();
        assert!(
            durante <= 20,
            "{durante} peticiones en 10 s de partición: es una tormenta; dobla el tope de la espera en cada fallo"
        );
        assert_eq!(
            durante,
            13,
            "con la semilla {SEMILLA}, en los 10 s de partición llegan exactamente 13 peticiones (una por intento, con \
             la espera de cada fallo al azar hasta su tope); llegaron {durante}, a los {} ms",
            instantes(&r).iter().map(u128::to_string).collect::<Vec<_>>().join(", ")
        );
        let (saldo, cuando) = hechos[0].expect("el cliente no terminó");
        assert_eq!(saldo, Ok(10), "tras reparar la red, el ingreso debía llegar");
        assert!(
            cuando < Duration::from_secs(13),
            "terminó a los {}: tras reparar, el siguiente intento llega",
            medidas::duracion(cuando)
        );
        assert_eq!(r.saldo, 10, "un solo ingreso, aunque llegaran varias peticiones");
    }

    #[test]
    fn dos_clientes_que_fallan_juntos_no_reintentan_juntos() {
        // Dos clientes empiezan a la vez y la red se les parte a los dos: sus primeras
        // peticiones llegan juntas. Con semillas distintas, sus reintentos se separan.
        let (r, hechos) = particion(&[1, 2]);
        let de = |id: u64| -> Vec<u128> {
            r.peticiones
                .iter()
                .filter(|&&(t, quien)| quien == id && t < Duration::from_secs(10))
                .map(|(t, _)| t.as_millis())
                .collect()
        };
        let (a, b) = (de(1), de(2));
        assert_eq!(a.first(), b.first(), "las primeras peticiones de los dos salen a la vez");
        let juntas: Vec<&u128> = a.iter().skip(1).filter(|t| b.contains(t)).collect();
        assert!(
            juntas.is_empty(),
            "los dos clientes fallaron a la vez y sus reintentos siguen llegando juntos (a los {juntas:?} ms): sin \
             azar en la espera, reintentan a la vez para siempre. A: {a:?}, B: {b:?}"
        );
        for (i, h) in hechos.iter().enumerate() {
            let (saldo, _) = h.unwrap_or_else(|| panic!("el cliente {i} no terminó"));
            assert!(saldo.is_ok(), "tras reparar la red, el ingreso del cliente {i} debía llegar");
        }
        assert_eq!(r.saldo, 20, "dos ingresos de 10, cada uno una sola vez");
    }
}
