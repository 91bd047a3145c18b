//! Los dos ejecutores (y el adaptador de Tokio) con la misma batería de
//! pruebas: cada tarea corre exactamente una vez, ninguna se pierde y
//! ninguna se queda sin turno. Se cuentan cosas, no se miden tiempos; el
//! límite de tiempo solo evita que una prueba colgada se quede ahí.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use futures::channel::mpsc as canal;
use futures::{SinkExt, StreamExt};

use leccion_09::cargas::{Carga, Tamanos, Tokio, ejecuta};
use leccion_09::planificador::{Ejecutor, Robo, UnaCola, ceder};

const LIMITE: Duration = Duration::from_secs(30);

fn con_limite<T: Send + 'static>(que: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let hilo = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(LIMITE) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{que}: no terminó en {LIMITE:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => std::panic::resume_unwind(hilo.join().unwrap_err()),
    }
}

/// Las pruebas, para cualquier ejecutor.
fn bateria<E: Ejecutor>(nuevo: fn(usize) -> E) {
    for hilos in [1, 2, 4] {
        // 10 000 tareas lanzadas desde fuera, cada una una vez.
        let e = nuevo(hilos);
        let veces: Arc<Vec<AtomicU32>> = Arc::new((0..10_000).map(|_| AtomicU32::new(0)).collect());
        let manijas: Vec<_> = (0..10_000u64)
            .map(|i| {
                let veces = Arc::clone(&veces);
                e.lanza(async move {
                    veces[i as usize].fetch_add(1, Ordering::Relaxed);
                    i
                })
            })
            .collect();
        let suma = e.bloquea_en(async {
            let mut suma = 0;
            for m in manijas {
                suma += m.await;
            }
            suma
        });
        assert_eq!(suma, 9_999 * 10_000 / 2);
        assert!(veces.iter().all(|v| v.load(Ordering::Relaxed) == 1), "cada tarea corre exactamente una vez");

        // Las cuatro cargas del banco, en pequeño.
        for carga in Carga::TODAS {
            let total = ejecuta(&e, carga, &Tamanos::rapidos());
            assert!(total > 0);
        }

        // Tareas que se despiertan unas a otras: un anillo de 8 que pasa un
        // testigo 1000 vueltas.
        let pasos = Arc::new(AtomicUsize::new(0));
        let (mut emisores, receptores): (Vec<_>, Vec<_>) = (0..8).map(|_| canal::channel::<u32>(1)).unzip();
        emisores.rotate_left(1);
        let mut manijas = Vec::new();
        for (i, (mut siguiente, mut mio)) in emisores.into_iter().zip(receptores).enumerate() {
            let pasos = Arc::clone(&pasos);
            manijas.push(e.lanza(async move {
                if i == 0 {
                    siguiente.send(0).await.unwrap();
                }
                while let Some(n) = mio.next().await {
                    pasos.fetch_add(1, Ordering::Relaxed);
                    if n == 8 * 1000 {
                        break; // se suelta `siguiente`: el anillo se cierra detrás
                    }
                    if siguiente.send(n + 1).await.is_err() {
                        break;
                    }
                }
            }));
        }
        e.bloquea_en(async {
            for m in manijas {
                m.await;
            }
        });
        assert_eq!(pasos.load(Ordering::Relaxed), 8 * 1000 + 1, "el testigo pasa por cada tarea, sin perderse");

        // Tareas que ceden mientras otras llegan desde fuera.
        let hechas = Arc::new(AtomicUsize::new(0));
        let h = Arc::clone(&hechas);
        let gira = e.lanza(async move {
            while h.load(Ordering::Relaxed) < 200 {
                ceder().await;
            }
        });
        for _ in 0..200 {
            let h = Arc::clone(&hechas);
            e.lanza_desligada(async move {
                h.fetch_add(1, Ordering::Relaxed);
            });
        }
        e.bloquea_en(gira);
        e.apaga();
    }
}

#[test]
fn una_cola() {
    con_limite("una-cola", || bateria(UnaCola::nuevo));
}

#[test]
fn robo() {
    con_limite("robo", || bateria(Robo::nuevo));
}

#[test]
fn tokio_con_el_mismo_adaptador() {
    con_limite("tokio", || bateria(Tokio::nuevo));
}

#[test]
fn apagar_con_tareas_pendientes_no_se_cuelga() {
    con_limite("apagar con tareas pendientes", || {
        for hilos in [1, 3] {
            let (una, robo) = (UnaCola::nuevo(hilos), Robo::nuevo(hilos));
            for _ in 0..100 {
                una.lanza_desligada(std::future::pending::<()>());
                robo.lanza_desligada(std::future::pending::<()>());
            }
            una.apaga();
            robo.apaga();
        }
    });
}

#[test]
fn si_una_tarea_entra_en_panico_bloquea_en_no_se_cuelga() {
    for e in [0, 1] {
        let resultado = con_limite("pánico en una tarea", move || {
            std::panic::catch_unwind(|| {
                let f = async { panic!("pánico de prueba dentro de una tarea") };
                if e == 0 {
                    let una = UnaCola::nuevo(2);
                    una.bloquea_en(una.lanza(f))
                } else {
                    let robo = Robo::nuevo(2);
                    robo.bloquea_en(robo.lanza(f))
                }
            })
        });
        let error = resultado.expect_err("bloquea_en debe entrar en pánico si muere un hilo trabajador");
        let mensaje = error.downcast_ref::<&str>().copied().unwrap_or_default();
        assert!(mensaje.contains("murió por un pánico"), "{mensaje}");
    }
}
