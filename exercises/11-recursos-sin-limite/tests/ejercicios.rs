//! Pruebas del capítulo 11. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/11-recursos-sin-limite`) y contra la solución
//! (`solutions/11-recursos-sin-limite`). Un módulo por ejercicio.
//!
//! Las que usan tiempo corren con el reloj de Tokio en pausa
//! (`start_paused = true`): un `sleep` no espera de verdad, el reloj salta al
//! siguiente temporizador cuando no queda nada que hacer, y el resultado es
//! el mismo en cualquier máquina. Los límites no se miden con tiempos sino
//! con contadores que actualizan los propios trabajos: cuántos hay en marcha
//! y el máximo que se ha visto nunca.

mod apoyo {
    use std::future::Future;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Lo que ven los trabajos de las pruebas: cuántos están en marcha, el
    /// máximo de trabajos y de tareas vivas que se ha visto, y cuántos han
    /// terminado.
    #[derive(Default)]
    pub struct Vigia {
        en_curso: AtomicUsize,
        max: AtomicUsize,
        max_tareas: AtomicUsize,
        terminados: AtomicUsize,
    }

    impl Vigia {
        pub fn nuevo() -> Arc<Vigia> {
            Arc::new(Vigia::default())
        }

        /// Al empezar un trabajo.
        pub fn entra(&self) {
            let ahora = self.en_curso.fetch_add(1, Ordering::SeqCst) + 1;
            self.max.fetch_max(ahora, Ordering::SeqCst);
            let tareas = tokio::runtime::Handle::current().metrics().num_alive_tasks();
            self.max_tareas.fetch_max(tareas, Ordering::SeqCst);
        }

        /// Al terminarlo.
        pub fn sale(&self) {
            self.en_curso.fetch_sub(1, Ordering::SeqCst);
            self.terminados.fetch_add(1, Ordering::SeqCst);
        }

        pub fn max(&self) -> usize {
            self.max.load(Ordering::SeqCst)
        }

        pub fn max_tareas(&self) -> usize {
            self.max_tareas.load(Ordering::SeqCst)
        }

        pub fn terminados(&self) -> usize {
            self.terminados.load(Ordering::SeqCst)
        }
    }

    /// Red de seguridad contra cuelgues, no un umbral de tiempo: con el reloj
    /// en pausa, si todo queda esperando algo que no llegará nunca, el reloj
    /// salta hasta aquí y la prueba falla con un mensaje en vez de colgarse.
    pub async fn sin_colgarse<F: Future>(que: &str, futuro: F) -> F::Output {
        match tokio::time::timeout(Duration::from_secs(24 * 3600), futuro).await {
            Ok(salida) => salida,
            Err(_) => panic!(
                "{que} no terminó nunca: se quedó esperando algo que no iba a llegar \
                 (¿un permiso que nadie suelta, o un emisor que sigue vivo?)"
            ),
        }
    }

    pub fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }
}

mod limita {
    use std::sync::Arc;

    use recursos::limita::lanza_limitado;
    use tokio::time::{Instant, sleep};

    use crate::apoyo::{Vigia, ms, sin_colgarse};

    /// Un trabajo que se deja vigilar y tarda 10, 20 o 30 ms (virtuales).
    async fn trabajo(vigia: Arc<Vigia>, i: usize) -> usize {
        vigia.entra();
        sleep(ms(10 * (1 + i as u64 % 3))).await;
        vigia.sale();
        i * i
    }

    #[tokio::test(start_paused = true)]
    async fn devuelve_los_resultados_en_orden() {
        let vigia = Vigia::nuevo();
        let resultados = sin_colgarse("lanza_limitado", lanza_limitado(20, 4, |i| trabajo(vigia.clone(), i))).await;
        assert_eq!(
            resultados,
            (0..20).map(|i| i * i).collect::<Vec<_>>(),
            "lanza_limitado debe devolver el resultado de cada trabajo, en el orden de `i`"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn nunca_mas_de_limite_trabajos_a_la_vez() {
        let vigia = Vigia::nuevo();
        sin_colgarse("lanza_limitado", lanza_limitado(60, 5, |i| trabajo(vigia.clone(), i))).await;
        let max = vigia.max();
        assert!(
            max <= 5,
            "llegó a haber {max} trabajos en marcha a la vez con un límite de 5: el permiso tiene \
             que seguir vivo hasta que el trabajo termine (ojo: `let _ = ...` lo suelta en esa \
             misma línea)"
        );
        assert_eq!(max, 5, "nunca hubo 5 trabajos a la vez, y el límite es 5: un permiso por tarea, no uno para todas");
    }

    #[tokio::test(start_paused = true)]
    async fn nunca_mas_de_limite_tareas_vivas() {
        let vigia = Vigia::nuevo();
        sin_colgarse("lanza_limitado", lanza_limitado(60, 5, |i| trabajo(vigia.clone(), i))).await;
        let tareas = vigia.max_tareas();
        assert!(
            tareas <= 5,
            "llegó a haber {tareas} tareas vivas a la vez con un límite de 5. Pide el permiso \
             antes de `tokio::spawn`, no dentro de la tarea: una tarea que espera su permiso \
             también ocupa memoria"
        );
        assert!(tareas >= 1, "ningún trabajo corrió en una tarea propia: lánzalos con tokio::spawn");
    }

    #[tokio::test(start_paused = true)]
    async fn tarda_lo_que_debe() {
        // Diez trabajos de 100 ms, cinco a la vez: dos tandas, 200 ms.
        let inicio = Instant::now();
        sin_colgarse("lanza_limitado", lanza_limitado(10, 5, |_| sleep(ms(100)))).await;
        let tardado = inicio.elapsed();
        assert!(
            tardado >= ms(200) && tardado < ms(201),
            "diez trabajos de 100 ms, cinco a la vez, deberían tardar 200 ms; tardaron {tardado:?} \
             (100 ms: no hay límite; 1000 ms: van de uno en uno)"
        );
    }
}

mod rechaza {
    use std::task::Poll;

    use recursos::rechaza::{Recepcion, Rechazo};
    use tokio_test::task;

    /// Ofrece un trabajo sondeando `ofrece` una sola vez. Si no está listo
    /// en ese primer sondeo, la recepción se ha puesto a esperar sitio.
    fn ofrece_ya<T>(recepcion: &Recepcion<T>, trabajo: T) -> Result<(), Rechazo<T>> {
        let mut ofrece = task::spawn(recepcion.ofrece(trabajo));
        match ofrece.poll() {
            Poll::Ready(resultado) => resultado,
            Poll::Pending => panic!(
                "`ofrece` se quedó esperando en lugar de responder: con la cola llena tiene que \
                 rechazar al momento (`try_send`), no esperar a que haya sitio (`send().await`)"
            ),
        }
    }

    #[test]
    fn acepta_mientras_cabe() {
        let (recepcion, mut buzon) = Recepcion::nueva(3);
        for i in 1..=3 {
            assert_eq!(ofrece_ya(&recepcion, i), Ok(()), "con sitio en la cola, el trabajo {i} debe entrar");
        }
        assert_eq!(recepcion.aceptadas(), 3, "aceptadas() debe contar los trabajos que entraron");
        assert_eq!(recepcion.rechazadas(), 0, "no se ha rechazado nada todavía");
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(recibidos, [1, 2, 3], "lo aceptado debe llegar al buzón, en orden");
    }

    #[test]
    fn rechaza_al_momento_cuando_esta_llena() {
        let (recepcion, _buzon) = Recepcion::nueva(2);
        assert_eq!(ofrece_ya(&recepcion, 1), Ok(()));
        assert_eq!(ofrece_ya(&recepcion, 2), Ok(()));
        let rechazo = ofrece_ya(&recepcion, 3);
        assert_eq!(
            rechazo,
            Err(Rechazo::Llena(3)),
            "con la cola llena, ofrece debe devolver Err(Rechazo::Llena(trabajo)), con el mismo trabajo"
        );
        assert!(rechazo.unwrap_err().to_string().contains("llena"));
        assert_eq!(recepcion.rechazadas(), 1, "rechazadas() debe contar el rechazo");
        assert_eq!(recepcion.aceptadas(), 2);
    }

    #[test]
    fn no_pierde_nada() {
        let (recepcion, mut buzon) = Recepcion::nueva(10);
        let (mut aceptados, mut rechazados) = (Vec::new(), Vec::new());
        for i in 0..100 {
            match ofrece_ya(&recepcion, i) {
                Ok(()) => aceptados.push(i),
                Err(Rechazo::Llena(t)) => {
                    assert_eq!(t, i, "el rechazo debe devolver el trabajo que se ofreció");
                    rechazados.push(t);
                }
                Err(Rechazo::Cerrada(_)) => panic!("el buzón sigue vivo: la recepción no está cerrada"),
            }
        }
        assert_eq!(
            aceptados.len(),
            10,
            "con capacidad 10 y nadie sacando trabajos, se aceptaron {}: la cola tiene que ser \
             acotada (`mpsc::channel(capacidad)`)",
            aceptados.len()
        );
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(
            recibidos, aceptados,
            "todo lo que ofrece dio por aceptado tiene que llegar al buzón: nada se tira en silencio"
        );
        assert_eq!((recepcion.aceptadas(), recepcion.rechazadas()), (10, 90), "las cuentas no cuadran");
    }

    #[test]
    fn avisa_cuando_nadie_recibe() {
        let (recepcion, buzon) = Recepcion::nueva(4);
        drop(buzon);
        let rechazo = ofrece_ya(&recepcion, 7);
        assert_eq!(
            rechazo,
            Err(Rechazo::Cerrada(7)),
            "sin buzón nadie atenderá el trabajo: ofrece debe devolver Err(Rechazo::Cerrada(trabajo))"
        );
        assert_eq!(recepcion.rechazadas(), 1, "rechazadas() también cuenta los rechazos por cierre");
    }

    #[test]
    fn vuelve_a_aceptar_cuando_hay_sitio() {
        let (recepcion, mut buzon) = Recepcion::nueva(2);
        assert_eq!(ofrece_ya(&recepcion, 1), Ok(()));
        assert_eq!(ofrece_ya(&recepcion, 2), Ok(()));
        assert_eq!(ofrece_ya(&recepcion, 3), Err(Rechazo::Llena(3)));
        assert_eq!(buzon.intenta_recibir(), Some(1));
        assert_eq!(
            ofrece_ya(&recepcion, 4),
            Ok(()),
            "al sacar un trabajo del buzón queda sitio otra vez: la capacidad es lo que hay en la \
             cola ahora, no lo que se ha aceptado en total"
        );
        assert_eq!(ofrece_ya(&recepcion, 5), Err(Rechazo::Llena(5)));
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(recibidos, [2, 4]);
    }
}

mod despacha {
    use std::sync::Arc;

    use recursos::despacha::despacha;
    use tokio::sync::Semaphore;
    use tokio::sync::mpsc::error::TrySendError;
    use tokio::time::sleep;

    use crate::apoyo::{Vigia, ms, sin_colgarse};

    /// Un trabajo que se deja vigilar y tarda 10, 20 o 30 ms (virtuales).
    async fn atiende(vigia: Arc<Vigia>, t: u64) {
        vigia.entra();
        sleep(ms(10 * (1 + t % 3))).await;
        vigia.sale();
    }

    /// Ofrece 200 trabajos, diez cada 5 ms: mucho más deprisa de lo que se
    /// atienden. Devuelve (aceptados, rechazados).
    async fn pico(tx: &tokio::sync::mpsc::Sender<u64>) -> (usize, usize) {
        let (mut aceptados, mut rechazados) = (0, 0);
        for i in 0..200u64 {
            match tx.try_send(i) {
                Ok(()) => aceptados += 1,
                Err(TrySendError::Full(_)) => rechazados += 1,
                Err(TrySendError::Closed(_)) => panic!(
                    "la cola se cerró con emisores vivos: el despachador dejó de recibir antes de \
                     tiempo (una cola vacía no es una cola cerrada: usa `recv().await`)"
                ),
            }
            if i % 10 == 9 {
                sleep(ms(5)).await;
            }
        }
        (aceptados, rechazados)
    }

    #[tokio::test(start_paused = true)]
    async fn atiende_todo_lo_que_acepto() {
        let vigia = Vigia::nuevo();
        let v = vigia.clone();
        let (tx, despachador) = despacha(8, 3, move |t| atiende(v.clone(), t));
        let (aceptados, rechazados) = pico(&tx).await;
        drop(tx);
        let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
        assert_eq!(
            vigia.terminados(),
            aceptados,
            "cuando el despachador devolvió su cuenta solo habían terminado {} de los {aceptados} \
             trabajos aceptados: antes de devolver, espera a que terminen todos (JoinSet::join_next)",
            vigia.terminados()
        );
        assert_eq!(atendidos, aceptados, "el despachador dice que atendió {atendidos}, pero se aceptaron {aceptados}");
        assert!(
            rechazados > 0,
            "se ofrecieron 200 trabajos mucho más deprisa de lo que se atienden y no se rechazó \
             ninguno: los trabajos tienen que esperar en la cola acotada, no en tareas"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn nunca_mas_de_simultaneos() {
        let vigia = Vigia::nuevo();
        let v = vigia.clone();
        let (tx, despachador) = despacha(8, 3, move |t| atiende(v.clone(), t));
        pico(&tx).await;
        drop(tx);
        sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
        let max = vigia.max();
        assert!(
            max <= 3,
            "llegó a haber {max} trabajos en marcha a la vez con `simultaneos = 3`: pide un permiso \
             antes de lanzar cada trabajo y suéltalo cuando termine"
        );
        assert_eq!(max, 3, "nunca hubo 3 trabajos a la vez: lánzalos en tareas, no uno detrás de otro");
    }

    #[tokio::test(start_paused = true)]
    async fn con_todo_ocupado_la_cola_se_llena() {
        // Los trabajos no terminan hasta que la prueba abre la puerta.
        let puerta = Arc::new(Semaphore::new(0));
        let vigia = Vigia::nuevo();
        let (p, v) = (puerta.clone(), vigia.clone());
        let (tx, despachador) = despacha(8, 3, move |_t: u64| {
            let (p, v) = (p.clone(), v.clone());
            async move {
                v.entra();
                let _pasa = p.acquire().await.expect("la puerta no se cierra");
                v.sale();
            }
        });
        let mut aceptados = 0;
        for i in 0..100 {
            if tx.try_send(i).is_ok() {
                aceptados += 1;
            }
            // Deja correr al despachador entre oferta y oferta.
            tokio::task::yield_now().await;
        }
        assert!(
            aceptados <= 8 + 3 + 1,
            "con 3 trabajos en marcha que no terminan y una cola de 8, se aceptaron {aceptados} de \
             100: el despachador no debe sacar más trabajos de la cola de los que puede atender"
        );
        puerta.add_permits(1_000);
        drop(tx);
        let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
        assert_eq!(atendidos, aceptados, "se aceptaron {aceptados} y el despachador dice que atendió {atendidos}");
        assert_eq!(vigia.terminados(), aceptados, "no terminaron todos los trabajos aceptados");
    }

    #[tokio::test(start_paused = true)]
    async fn sigue_esperando_si_la_cola_se_vacia() {
        let vigia = Vigia::nuevo();
        let v = vigia.clone();
        let (tx, despachador) = despacha(4, 2, move |t| atiende(v.clone(), t));
        for i in 0..2 {
            tx.try_send(i).expect("la cola está vacía: tiene que caber");
        }
        // Da tiempo de sobra para terminarlos: la cola se queda vacía.
        sleep(ms(100)).await;
        for i in 2..4 {
            match tx.try_send(i) {
                Ok(()) => {}
                Err(TrySendError::Closed(_)) => panic!(
                    "después de vaciarse la cola, el despachador ya no recibía: una cola vacía no \
                     está cerrada. Sal del bucle solo cuando `recv().await` devuelva `None`"
                ),
                Err(TrySendError::Full(_)) => panic!("la cola está vacía: tiene que caber"),
            }
        }
        drop(tx);
        let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
        assert_eq!(atendidos, 4, "se aceptaron 4 trabajos");
        assert_eq!(vigia.terminados(), 4, "se aceptaron 4 trabajos y no terminaron todos");
    }

    #[tokio::test(start_paused = true)]
    async fn termina_si_no_llega_nada() {
        let (tx, despachador) = despacha(4, 2, |_t: u64| async {});
        drop(tx);
        let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
        assert_eq!(atendidos, 0, "sin trabajos, el despachador debe devolver 0");
    }
}
