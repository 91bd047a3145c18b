//! Graba una ejecución de verdad del runtime multihilo de Tokio, evento a
//! evento, en una traza del reproductor del libro (`book/trazas/tokio-*.json`).
//!
//! ```text
//! cargo planificador --bin grabador -- --carga reparto   # book/trazas/tokio-reparto.json
//! cargo planificador --bin grabador -- --carga desborde
//! cargo planificador --bin grabador -- --carga robo --salida /tmp/robo.json
//! ```
//!
//! Los ganchos de las tareas (`on_task_spawn`, `on_before_task_poll`,
//! `on_after_task_poll`, `on_task_terminate`) y las métricas por trabajador
//! solo existen con `--cfg tokio_unstable`: sin la bandera, el programa lo
//! dice y termina. `tokio::runtime::worker_index()` es estable desde Tokio 1.54.
//! Qué se hace con lo grabado está en `leccion_08::grabacion`.

#[cfg(not(tokio_unstable))]
fn main() {
    let _: leccion_08::grabacion::OpcionesDelGrabador = opciones::de_la_linea_de_ordenes();
    eprintln!(
        "error: el grabador usa los ganchos de las tareas de Tokio, que solo existen si se compila con \
         --cfg tokio_unstable.\nUsa el alias del curso, que compila con la bandera en target/tokio-inestable:\n  \
         cargo planificador --bin grabador -- --carga robo"
    );
    std::process::exit(2);
}

#[cfg(tokio_unstable)]
fn main() {
    real::main();
}

#[cfg(tokio_unstable)]
mod real {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, OnceLock};
    use std::time::{Duration, Instant};

    use leccion_08::calcula;
    use leccion_08::grabacion::{
        self, Carga, Contadores, Evento, Grabacion, HIJAS, HIJAS_DEL_DESBORDE, Muestra, OpcionesDelGrabador, Que,
        VUELTAS_HIJA_DESBORDE, VUELTAS_HIJA_ROBO, VUELTAS_LARGA_ROBO, VUELTAS_REPARTO,
    };
    use tokio::runtime::{Builder, Runtime, RuntimeMetrics};

    /// El `Cargo.lock` del espacio de trabajo: de ahí sale la versión de Tokio compilada.
    const LOCK: &str = include_str!("../../../../Cargo.lock");

    /// Un evento tal como llega de un gancho, con el id de Tokio.
    struct Anotado {
        t: Duration,
        que: Que,
        id: Option<u64>,
        padre: Option<u64>,
        trabajador: Option<usize>,
        muestra: Muestra,
    }

    struct Dentro {
        inicio: Instant,
        eventos: Vec<Anotado>,
    }

    /// Lo que comparten los ganchos: los eventos y las métricas.
    struct Grabadora {
        activa: AtomicBool,
        dormidos: Mutex<Vec<bool>>,
        dentro: Mutex<Dentro>,
        metricas: OnceLock<RuntimeMetrics>,
    }

    fn id(i: tokio::task::Id) -> Option<u64> {
        i.to_string().parse().ok()
    }

    impl Grabadora {
        fn nueva(trabajadores: usize) -> Self {
            Grabadora {
                activa: AtomicBool::new(false),
                dormidos: Mutex::new(vec![false; trabajadores]),
                dentro: Mutex::new(Dentro { inicio: Instant::now(), eventos: Vec::new() }),
                metricas: OnceLock::new(),
            }
        }

        /// Las métricas en este instante. Las profundidades de las colas se
        /// leen al momento; los contadores, como los publicó cada trabajador.
        fn muestra(&self) -> Muestra {
            let Some(m) = self.metricas.get() else { return Muestra::default() };
            let trabajadores = (0..m.num_workers())
                .map(|w| Contadores {
                    cola: m.worker_local_queue_depth(w) as u64,
                    robadas: m.worker_steal_count(w),
                    robos: m.worker_steal_operations(w),
                    desbordes: m.worker_overflow_count(w),
                    sondeos: m.worker_poll_count(w),
                    locales: m.worker_local_schedule_count(w),
                })
                .collect();
            Muestra { global: m.global_queue_depth() as u64, trabajadores }
        }

        // ANCHOR: anota
        fn anota(&self, que: Que, id: Option<u64>, padre: Option<u64>) {
            if !self.activa.load(Ordering::Acquire) {
                return;
            }
            let trabajador = tokio::runtime::worker_index();
            // La muestra y el tiempo, dentro del candado: el orden de los
            // eventos es el de sus muestras, y así ningún contador baja.
            let mut d = self.dentro.lock().unwrap();
            let muestra = self.muestra();
            let t = d.inicio.elapsed();
            d.eventos.push(Anotado { t, que, id, padre, trabajador, muestra });
        }
        // ANCHOR_END: anota

        fn aparca(&self, dormido: bool) {
            if let Some(w) = tokio::runtime::worker_index()
                && let Some(d) = self.dormidos.lock().unwrap().get_mut(w)
            {
                *d = dormido;
            }
            self.anota(if dormido { Que::Duerme } else { Que::Despierta }, None, None);
        }

        /// Empieza a grabar; devuelve qué trabajadores dormían.
        fn empieza(&self) -> Vec<bool> {
            let mut d = self.dentro.lock().unwrap();
            d.inicio = Instant::now();
            d.eventos.clear();
            self.activa.store(true, Ordering::Release);
            self.dormidos.lock().unwrap().clone()
        }

        fn todos_dormidos(&self) -> bool {
            self.dormidos.lock().unwrap().iter().all(|d| *d)
        }

        /// Espera, como mucho `plazo`, a que todos los trabajadores duerman.
        fn espera_a_que_duerman(&self, plazo: Duration) {
            let limite = Instant::now() + plazo;
            while !self.todos_dormidos() && Instant::now() < limite {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }

    fn runtime(trabajadores: usize, g: &Arc<Grabadora>) -> Runtime {
        let (a, b, c, d, e, f) = (g.clone(), g.clone(), g.clone(), g.clone(), g.clone(), g.clone());
        // ANCHOR: ganchos
        let rt = Builder::new_multi_thread()
            .worker_threads(trabajadores)
            .on_task_spawn(move |m| {
                let lugar = format!("{}:{}", m.spawned_at().file(), m.spawned_at().line());
                a.anota(Que::Lanza { padre: None, lugar }, id(m.id()), tokio::task::try_id().and_then(id));
            })
            .on_before_task_poll(move |m| b.anota(Que::Empieza, id(m.id()), None))
            .on_after_task_poll(move |m| c.anota(Que::Acaba, id(m.id()), None))
            .on_task_terminate(move |m| d.anota(Que::Termina, id(m.id()), None))
            .on_thread_park(move || e.aparca(true))
            .on_thread_unpark(move || f.aparca(false))
            .build()
            .unwrap_or_else(|e| fallo(&format!("no se pudo crear el runtime: {e}")));
        // ANCHOR_END: ganchos
        let _ = g.metricas.set(rt.metrics());
        rt
    }

    fn fallo(mensaje: &str) -> ! {
        eprintln!("error: {mensaje}");
        std::process::exit(1)
    }

    /// Ejecuta la carga y espera a que acaben todas sus tareas.
    fn ejecuta(rt: &Runtime, carga: Carga) {
        match carga {
            Carga::Reparto => {
                let raiz = rt.spawn(async {
                    (0..HIJAS as u64)
                        .map(|i| {
                            tokio::spawn(async move {
                                calcula(i, VUELTAS_REPARTO);
                                tokio::task::yield_now().await;
                                calcula(i + 100, VUELTAS_REPARTO);
                            })
                        })
                        .collect::<Vec<_>>()
                });
                espera(rt, raiz);
            }
            Carga::Desborde => {
                let raiz = rt.spawn(async {
                    (0..HIJAS_DEL_DESBORDE as u64)
                        .map(|i| tokio::spawn(async move { calcula(i, VUELTAS_HIJA_DESBORDE) }))
                        .collect::<Vec<_>>()
                });
                espera(rt, raiz);
            }
            Carga::Robo => {
                let raiz = rt.spawn(async {
                    let hijas: Vec<_> =
                        (0..HIJAS as u64).map(|i| tokio::spawn(async move { calcula(i, VUELTAS_HIJA_ROBO) })).collect();
                    calcula(99, VUELTAS_LARGA_ROBO);
                    hijas
                });
                espera(rt, raiz);
            }
        }
    }

    /// Espera, desde fuera del runtime, a la raíz y a todas sus hijas.
    fn espera<T: Send + 'static>(rt: &Runtime, raiz: tokio::task::JoinHandle<Vec<tokio::task::JoinHandle<T>>>) {
        rt.block_on(async {
            let hijas = raiz.await.unwrap_or_else(|e| fallo(&format!("la tarea raíz falló: {e}")));
            for h in hijas {
                h.await.unwrap_or_else(|e| fallo(&format!("una hija falló: {e}")));
            }
        });
    }

    /// Una ejecución grabada entera.
    fn graba(o: &OpcionesDelGrabador, intento: u32) -> Grabacion {
        let g = Arc::new(Grabadora::nueva(o.trabajadores));
        let rt = runtime(o.trabajadores, &g);
        // Se graba desde que todos los trabajadores duermen: así el estado
        // inicial del reproductor se sabe.
        g.espera_a_que_duerman(Duration::from_secs(2));
        let dormidos_al_empezar = g.empieza();
        ejecuta(&rt, o.carga);
        g.espera_a_que_duerman(Duration::from_millis(100));
        g.activa.store(false, Ordering::Release);
        // Al apagarse, cada trabajador publica los contadores que le faltaban.
        let metricas = rt.metrics();
        drop(rt);
        let mut d = g.dentro.lock().unwrap();
        let t = d.inicio.elapsed();
        let mut anotados = std::mem::take(&mut d.eventos);
        drop(d);
        let _ = g.metricas.set(metricas);
        anotados.push(Anotado { t, que: Que::Cierre, id: None, padre: None, trabajador: None, muestra: g.muestra() });
        Grabacion {
            carga: o.carga,
            trabajadores: o.trabajadores,
            nucleos: std::thread::available_parallelism().map_or(0, |n| n.get()),
            tokio: grabacion::version_en_el_lock(LOCK).unwrap_or_else(|| "desconocida".into()),
            orden: grabacion::orden_de_grabacion(o.carga, o.trabajadores),
            intentos: intento,
            dormidos_al_empezar,
            eventos: numera(anotados),
        }
    }

    /// Las tareas, numeradas por orden de lanzamiento (los ids de Tokio son
    /// de todo el proceso y no empiezan en 0).
    fn numera(anotados: Vec<Anotado>) -> Vec<Evento> {
        let mut numeros: HashMap<u64, usize> = HashMap::new();
        for a in &anotados {
            if let (Que::Lanza { .. }, Some(i)) = (&a.que, a.id) {
                let n = numeros.len();
                numeros.entry(i).or_insert(n);
            }
        }
        let mut numero = |i: u64| {
            let n = numeros.len();
            *numeros.entry(i).or_insert(n)
        };
        anotados
            .into_iter()
            .map(|a| {
                let que = match a.que {
                    Que::Lanza { lugar, .. } => Que::Lanza { padre: a.padre.map(&mut numero), lugar },
                    otro => otro,
                };
                Evento {
                    t_ns: a.t.as_nanos() as u64,
                    que,
                    tarea: a.id.map(&mut numero),
                    trabajador: a.trabajador,
                    muestra: a.muestra,
                }
            })
            .collect()
    }

    pub fn main() {
        let o: OpcionesDelGrabador = opciones::de_la_linea_de_ordenes();
        let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let (traza, registro) = match &o.salida {
            Some(c) => (c.join(o.carga.archivo()), c.join(o.carga.archivo().replace(".json", ".registro.json"))),
            None => (raiz.join(o.carga.traza()), raiz.join(o.carga.registro())),
        };
        for intento in 1..=o.intentos {
            let g = graba(&o, intento);
            let pasos = grabacion::pasos::pasos(&g);
            let cuantos = |tipo: &str| pasos.iter().filter(|p| p.tipo == tipo).count();
            println!(
                "Ejecución {intento}: {} eventos, {} pasos: {} robos, {} desbordes, {} tomas de la cola global, \
                 {} de la ranura LIFO",
                g.eventos.len(),
                pasos.len(),
                cuantos("robo"),
                cuantos("desborde"),
                cuantos("global"),
                cuantos("ranura")
            );
            if cuantos(o.carga.promete()) == 0 {
                continue;
            }
            for (ruta, json) in [(&traza, grabacion::traza_json(&g)), (&registro, grabacion::registro_json(&g))] {
                if let Some(carpeta) = ruta.parent() {
                    let _ = std::fs::create_dir_all(carpeta);
                }
                if let Err(e) = std::fs::write(ruta, &json) {
                    fallo(&format!("no puedo escribir {}: {e}", ruta.display()));
                }
                println!("Escrito: {} ({} bytes)", ruta.display(), json.len());
            }
            return;
        }
        fallo(&format!(
            "ninguna de las {} ejecuciones enseñó lo que busca la carga «{}» (un paso «{}»); no he escrito nada",
            o.intentos,
            o.carga.nombre(),
            o.carga.promete()
        ));
    }
}
