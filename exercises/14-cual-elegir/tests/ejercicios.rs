//! Pruebas del capítulo 14. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/14-cual-elegir`) y contra la solución
//! (`solutions/14-cual-elegir`). Un módulo por ejercicio. Ninguna mide
//! tiempos de verdad: las latencias son datos inventados y el reloj de
//! Tokio está en pausa.

/// Lo que enseña `percentiles`, una prueba por propiedad:
///
/// - rango más cercano: la muestra de la posición `ceil(p * n / 100)`, contando
///   desde 1, nunca interpolada (`rango_mas_cercano_con_cien_muestras`,
///   `pocas_muestras`, `hacia_arriba_tambien_con_pocas_muestras`);
/// - la cuenta es exacta, sin restos de coma flotante (p7, p14, p28, p55, p56
///   de 100 muestras; p99,9 de 1 000) (`sin_errores_de_coma_flotante`);
/// - las muestras se ordenan, en una copia (`las_muestras_llegan_desordenadas`),
///   y se comparan enteras, con nanosegundos (`no_redondea_las_muestras`);
/// - sin muestras, o con `p` fuera de (0, 100] (cero, negativo, NaN,
///   infinitos), `None` (`sin_muestras_o_fuera_de_rango`, `nan_e_infinitos`);
/// - `resumen` usa p50, p99 y máximo (`resumen_de_una_carga`).
mod percentiles {
    use std::time::Duration;

    use cual_elegir::percentiles::{Resumen, percentil, resumen};

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|&m| Duration::from_millis(m)).collect()
    }

    /// Un percentil como lo escribe el libro («50 ms», no «Some(50ms)»).
    fn texto(d: Option<Duration>) -> String {
        d.map_or_else(|| "None".to_string(), medidas::duracion)
    }

    /// Falla si el percentil no es el esperado, con `mensaje` (si lo hay) y
    /// los dos valores como los escribe el libro.
    #[track_caller]
    fn mismo_percentil(obtenido: Option<Duration>, esperado: Option<Duration>, mensaje: &str) {
        let valores = format!("esperaba {}, no {}", texto(esperado), texto(obtenido));
        if mensaje.is_empty() {
            assert!(obtenido == esperado, "{valores}");
        } else {
            assert!(obtenido == esperado, "{mensaje} ({valores})");
        }
    }

    #[test]
    fn rango_mas_cercano_con_cien_muestras() {
        let muestras = ms(&(1..=100).collect::<Vec<_>>());
        mismo_percentil(percentil(&muestras, 50.0), Some(Duration::from_millis(50)), "");
        mismo_percentil(
            percentil(&muestras, 99.0),
            Some(Duration::from_millis(99)),
            "con 1..=100 ms, el p99 es 99 ms: la posición ceil(0,99 * 100) = 99, contando desde 1",
        );
        mismo_percentil(percentil(&muestras, 100.0), Some(Duration::from_millis(100)), "");
        mismo_percentil(percentil(&muestras, 1.0), Some(Duration::from_millis(1)), "");
    }

    #[test]
    fn pocas_muestras() {
        let muestras = ms(&[30, 10, 20]);
        mismo_percentil(percentil(&muestras, 50.0), Some(Duration::from_millis(20)), "ceil(0,5 * 3) = 2: la segunda");
        mismo_percentil(percentil(&muestras, 99.0), Some(Duration::from_millis(30)), "");
        mismo_percentil(percentil(&ms(&[7]), 99.0), Some(Duration::from_millis(7)), "");
    }

    #[test]
    fn sin_errores_de_coma_flotante() {
        let muestras = ms(&(1..=100).collect::<Vec<_>>());
        for p in [7u32, 14, 28, 55, 56, 29, 57, 58, 3, 33] {
            mismo_percentil(
                percentil(&muestras, f64::from(p)),
                Some(Duration::from_millis(u64::from(p))),
                &format!(
                    "con 1..=100 ms, el p{p} es {p} ms. En coma flotante, `{p}.0 / 100.0 * 100.0` puede dar un pelo más \
                 de {p}, y su ceil sube a {}: calcula la posición con enteros (milésimas de p por n, entre 100 000)",
                    p + 1
                ),
            );
        }
        let mil = ms(&(1..=1000).collect::<Vec<_>>());
        mismo_percentil(percentil(&mil, 99.9), Some(Duration::from_millis(999)), "p99,9 de 1..=1000 ms");
        mismo_percentil(percentil(&mil, 0.1), Some(Duration::from_millis(1)), "p0,1 de 1..=1000 ms");
        mismo_percentil(percentil(&mil, 12.345), Some(Duration::from_millis(124)), "ceil(12,345 * 10) = 124");
        mismo_percentil(percentil(&mil, 0.0001), Some(Duration::from_millis(1)), "un p diminuto es la primera muestra");
    }

    #[test]
    fn hacia_arriba_tambien_con_pocas_muestras() {
        let siete = ms(&[70, 10, 60, 20, 50, 30, 40]);
        mismo_percentil(
            percentil(&siete, 90.0),
            Some(Duration::from_millis(70)),
            "p90 de 7 muestras: la posición 6,3 sube a 7 (rango más cercano es ceil, no round)",
        );
        mismo_percentil(percentil(&siete, 50.0), Some(Duration::from_millis(40)), "p50 de 7 muestras: ceil(3,5) = 4");
        mismo_percentil(percentil(&siete, 14.0), Some(Duration::from_millis(10)), "ceil(0,98) = 1");
        mismo_percentil(percentil(&siete, 15.0), Some(Duration::from_millis(20)), "ceil(1,05) = 2");
        let ocho = ms(&[8, 7, 6, 5, 4, 3, 2, 1]);
        mismo_percentil(percentil(&ocho, 12.5), Some(Duration::from_millis(1)), "12,5 * 8 / 100 = 1 justo");
        mismo_percentil(percentil(&ocho, 12.6), Some(Duration::from_millis(2)), "12,6 * 8 / 100 = 1,008: sube a 2");
    }

    #[test]
    fn no_redondea_las_muestras() {
        let muestras: Vec<Duration> = [1_500, 999, 1_001, 2_000_000_001].map(Duration::from_nanos).to_vec();
        mismo_percentil(percentil(&muestras, 50.0), Some(Duration::from_nanos(1_001)), "compara las Duration enteras");
        mismo_percentil(percentil(&muestras, 100.0), Some(Duration::from_nanos(2_000_000_001)), "");
        mismo_percentil(percentil(&muestras, 25.0), Some(Duration::from_nanos(999)), "");
    }

    #[test]
    fn nan_e_infinitos() {
        let muestras = ms(&[1, 2, 3]);
        for p in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, -1.0, 100.000_001, f64::MAX] {
            mismo_percentil(
                percentil(&muestras, p),
                None,
                &format!(
                    "p = {} no es un percentil: devuelve None. Ojo con NaN: `p <= 0.0 || p > 100.0` es falso \
                     para NaN; escribe la condición al revés, `!(p > 0.0 && p <= 100.0)`",
                    p.to_string().replace('.', ",")
                ),
            );
        }
        mismo_percentil(percentil(&muestras, 100.0), Some(Duration::from_millis(3)), "100 sí vale: el máximo");
    }

    #[test]
    fn las_muestras_llegan_desordenadas() {
        // Como llegan en una prueba de carga: casi todas rápidas, y las lentas en cualquier sitio.
        let mut v: Vec<u64> = vec![1; 97];
        v.splice(10..10, [900, 5, 800]);
        let muestras = ms(&v);
        let copia = muestras.clone();
        mismo_percentil(percentil(&muestras, 50.0), Some(Duration::from_millis(1)), "");
        mismo_percentil(percentil(&muestras, 99.0), Some(Duration::from_millis(800)), "¿has ordenado las muestras?");
        assert_eq!(muestras, copia, "no cambies el orden de las muestras de quien llama");
    }

    #[test]
    fn sin_muestras_o_fuera_de_rango() {
        mismo_percentil(percentil(&[], 50.0), None, "");
        mismo_percentil(percentil(&ms(&[1, 2]), 0.0), None, "");
        mismo_percentil(percentil(&ms(&[1, 2]), 101.0), None, "");
        assert_eq!(resumen(&[]), None, "sin muestras no hay p50, ni p99, ni máximo: `resumen` devuelve None");
    }

    #[test]
    fn resumen_de_una_carga() {
        let mut v: Vec<u64> = (1..=1000).collect();
        v.reverse();
        let r = resumen(&ms(&v)).unwrap();
        let esperado = Resumen {
            p50: Duration::from_millis(500),
            p99: Duration::from_millis(990),
            maximo: Duration::from_millis(1000),
        };
        mismo_percentil(Some(r.p50), Some(esperado.p50), "el p50 de 1..=1000 ms");
        mismo_percentil(Some(r.p99), Some(esperado.p99), "el p99 de 1..=1000 ms");
        mismo_percentil(Some(r.maximo), Some(esperado.maximo), "el máximo de 1..=1000 ms");
    }
}

/// Lo que enseña `dimensiona`, una prueba por propiedad:
///
/// - shards = carga / (por_shard * ocupación), hacia arriba y al menos 1
///   (`shards_con_margen_y_hacia_arriba`), con `Err` si no hay núcleos
///   (`no_hay_nucleos_para_tanto`);
/// - límite por la ley de Little, con la espera en segundos, hacia abajo y al
///   menos 1 (`limite_por_la_ley_de_little`);
/// - la regla de redondeo: los restos de la coma flotante (28,999999999999996)
///   no cambian el resultado, y un resto de verdad (28,995) sí cuenta
///   (`redondeo_sin_ruido_de_coma_flotante`);
/// - datos sin sentido (NaN, infinitos, negativos, cero donde se divide,
///   ocupación fuera de (0, 1]) hacen entrar en pánico
///   (`datos_sin_sentido_entran_en_panico`).
mod dimensiona {
    use std::panic::{UnwindSafe, catch_unwind};
    use std::time::Duration;

    use cual_elegir::dimensiona::{Insuficiente, limite, shards};

    #[test]
    fn shards_con_margen_y_hacia_arriba() {
        assert_eq!(shards(100_000.0, 50_000.0, 0.7, 8), Ok(3), "100 000 / (50 000 * 0,7) = 2,86: hacen falta 3");
        assert_eq!(
            shards(80_000.0, 50_000.0, 0.7, 8),
            Ok(3),
            "80 000 / (50 000 * 0,7) = 2,29: con 2 shards irían al 80 %; redondea hacia arriba"
        );
        assert_eq!(
            shards(70_000.0, 50_000.0, 1.0, 8),
            Ok(2),
            "70 000 / (50 000 * 1,0) = 1,4: hacen falta 2 (hacia arriba)"
        );
        assert_eq!(
            shards(10.0, 50_000.0, 0.7, 8),
            Ok(1),
            "10 / (50 000 * 0,7) es casi 0: hace falta 1 (hacia arriba, y al menos uno)"
        );
        assert_eq!(shards(0.0, 50_000.0, 0.7, 8), Ok(1), "siempre hace falta al menos un shard");
    }

    #[test]
    fn no_hay_nucleos_para_tanto() {
        assert_eq!(
            shards(1_000_000.0, 50_000.0, 0.7, 8),
            Err(Insuficiente { necesarios: 29 }),
            "1 000 000 / (50 000 * 0,7) = 28,57: hacen falta 29 y solo hay 8 núcleos, así que Err con los 29 \
             necesarios"
        );
        assert_eq!(
            shards(100_000.0, 50_000.0, 0.7, 3),
            Ok(3),
            "100 000 / (50 000 * 0,7) = 2,86: hacen falta 3 y hay justo 3 núcleos: todavía Ok(3)"
        );
        assert_eq!(
            shards(100_000.0, 50_000.0, 0.7, 2),
            Err(Insuficiente { necesarios: 3 }),
            "hacen falta 3 y solo hay 2 núcleos: Err con los 3 necesarios"
        );
    }

    #[test]
    fn limite_por_la_ley_de_little() {
        assert_eq!(
            limite(100_000.0, Duration::from_millis(10)),
            1_000,
            "100 000 por segundo durante 10 ms son 1 000 peticiones: la espera va en segundos"
        );
        assert_eq!(
            limite(50_000.0, Duration::from_millis(5)),
            250,
            "50 000 por segundo durante 5 ms son 250 peticiones: la espera va en segundos (0,005 s)"
        );
        assert_eq!(limite(10.0, Duration::from_millis(1)), 1, "al menos 1");
        assert_eq!(limite(0.0, Duration::from_secs(3)), 1, "al menos 1, también sin ritmo");
        assert_eq!(limite(1_000.0, Duration::ZERO), 1, "al menos 1, también sin espera");
        assert_eq!(limite(333.3, Duration::from_millis(30)), 9, "333,3 * 0,03 = 9,999: hacia abajo");
        assert_eq!(limite(7.0, Duration::from_millis(1_500)), 10, "7 * 1,5 = 10,5: hacia abajo");
    }

    #[test]
    fn redondeo_sin_ruido_de_coma_flotante() {
        for (ms, esperado) in [(290, 29), (570, 57), (580, 58), (70, 7), (10, 1)] {
            assert_eq!(
                limite(100.0, Duration::from_millis(ms)),
                esperado,
                "100 por segundo durante {ms} ms son {esperado}. En coma flotante el producto puede salir \
                 {esperado} menos un pelo, y su floor baja uno: aplica la regla de redondeo del enunciado"
            );
        }
        assert_eq!(
            shards(870.0, 3_000.0, 0.29, 8),
            Ok(1),
            "870 / (3 000 * 0,29) es 1 exacto; en coma flotante, un pelo más, y su ceil sube a 2"
        );
        assert_eq!(shards(29.0, 100.0, 0.29, 8), Ok(1), "29 / (100 * 0,29) es 1 exacto");
        assert_eq!(shards(5_220.0, 3_000.0, 0.29, 8), Ok(6), "5 220 / 870 es 6 exacto");
        // Y un resto de verdad no se come: la tolerancia es una milmillonésima, no una centésima.
        assert_eq!(limite(1_000.0, Duration::from_micros(28_995)), 28, "1 000 * 0,028995 = 28,995: son 28");
        assert_eq!(shards(35_001.0, 50_000.0, 0.7, 8), Ok(2), "35 001 / 35 000 = 1,00003: hacen falta 2");
        assert_eq!(shards(35_100.0, 50_000.0, 0.7, 8), Ok(2), "35 100 / 35 000 = 1,003: hacen falta 2");
    }

    fn entra_en_panico<R: std::fmt::Debug>(que: &str, f: impl FnOnce() -> R + UnwindSafe) {
        match catch_unwind(f) {
            Err(_) => {}
            Ok(r) => panic!("{que} no tiene sentido y debe entrar en pánico, pero devolvió {r:?}"),
        }
    }

    #[test]
    fn datos_sin_sentido_entran_en_panico() {
        // Primero, que funcione con datos buenos (así una función sin hacer falla aquí, no abajo).
        assert_eq!(
            shards(100.0, 50.0, 1.0, 4),
            Ok(2),
            "con datos buenos, 100 / (50 * 1,0) = 2 shards: haz que esto funcione antes que los pánicos"
        );
        assert_eq!(
            limite(100.0, Duration::from_millis(50)),
            5,
            "con datos buenos, 100 por segundo durante 50 ms son 5: haz que esto funcione antes que los pánicos"
        );
        let ms = Duration::from_millis(10);
        entra_en_panico("una carga NaN", || shards(f64::NAN, 50_000.0, 0.7, 8));
        entra_en_panico("una carga infinita", || shards(f64::INFINITY, 50_000.0, 0.7, 8));
        entra_en_panico("una carga negativa", || shards(-1.0, 50_000.0, 0.7, 8));
        entra_en_panico("por_shard = 0", || shards(100.0, 0.0, 0.7, 8));
        entra_en_panico("por_shard NaN", || shards(100.0, f64::NAN, 0.7, 8));
        entra_en_panico("por_shard negativo", || shards(100.0, -5.0, 0.7, 8));
        entra_en_panico("ocupacion_max = 0", || shards(100.0, 50.0, 0.0, 8));
        entra_en_panico("ocupacion_max NaN", || shards(100.0, 50.0, f64::NAN, 8));
        entra_en_panico("ocupacion_max = 1,5", || shards(100.0, 50.0, 1.5, 8));
        entra_en_panico("por_segundo NaN", || limite(f64::NAN, ms));
        entra_en_panico("por_segundo infinito", || limite(f64::INFINITY, ms));
        entra_en_panico("por_segundo negativo", || limite(-100.0, ms));
    }
}

/// Lo que enseña `descarte`, una prueba por propiedad:
///
/// - una normal entra solo si deja al menos `reserva` libres; una alta, si
///   queda cualquiera (`las_normales_no_tocan_la_reserva`);
/// - un rechazo no se queda permisos, y soltar el permiso lo devuelve
///   (`los_permisos_vuelven_al_soltarlos`, `en_un_servicio_con_tareas`);
/// - nadie espera: sin sitio, `Err` en el acto (`sin_sitio_rechaza_sin_esperar`;
///   cada llamada de estas pruebas tiene un límite de un segundo);
/// - tomar y comprobar es una sola operación: si otra normal se cuela justo
///   después de mirar los permisos libres (la prueba la cuela ahí con una
///   costura, siempre), la reserva aguanta (`entre_mirar_y_tomar_no_se_cuela_nadie`);
///   y con varios hilos a la vez, las normales nunca se comen la reserva
///   (`con_hilos_a_la_vez_la_reserva_aguanta`).
mod descarte {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier, Mutex, mpsc};
    use std::time::{Duration, Instant};

    use cual_elegir::descarte::{Portero, Prioridad, Rechazada, Semaforo};
    use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

    /// `entra(&portero, prioridad)` en otro hilo, con un segundo como mucho:
    /// una versión que espera en vez de rechazar falla aquí, no colgada.
    fn entra(portero: &Portero, prioridad: Prioridad) -> Result<OwnedSemaphorePermit, Rechazada> {
        let (tx, rx) = mpsc::channel();
        let portero = portero.clone();
        std::thread::spawn(move || {
            let _ = tx.send(portero.entra(prioridad));
        });
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(resultado) => resultado,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                "`entra({prioridad:?})` lleva un segundo sin volver: el portero no espera nunca; sin sitio, \
                 responde Err(Rechazada) en el acto"
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("`entra({prioridad:?})` entró en pánico (mira arriba)"),
        }
    }

    #[test]
    fn las_normales_no_tocan_la_reserva() {
        let portero = Portero::new(10, 2);
        let mut dentro = Vec::new();
        for n in 0..8 {
            dentro.push(entra(&portero, Prioridad::Normal).unwrap_or_else(|_| panic!("la normal {n} cabe")));
        }
        assert_eq!(
            entra(&portero, Prioridad::Normal).err(),
            Some(Rechazada),
            "con 8 dentro solo quedan los 2 de la reserva: la novena normal se rechaza"
        );
        assert_eq!(portero.libres(), 2, "un rechazo no se queda ningún permiso");
        dentro.push(entra(&portero, Prioridad::Alta).expect("una alta usa la reserva"));
        dentro.push(entra(&portero, Prioridad::Alta).expect("y otra"));
        assert_eq!(entra(&portero, Prioridad::Alta).err(), Some(Rechazada), "ya no queda nada");
        assert_eq!(portero.libres(), 0, "8 normales y 2 altas dentro, con 10 permisos: no queda ninguno libre");
    }

    #[test]
    fn los_permisos_vuelven_al_soltarlos() {
        let portero = Portero::new(10, 2);
        let mut dentro: Vec<_> = (0..10)
            .map(|n| entra(&portero, if n < 8 { Prioridad::Normal } else { Prioridad::Alta }).unwrap())
            .collect();
        dentro.pop();
        assert_eq!(
            portero.libres(),
            1,
            "con 10 dentro y una que sale, queda 1 permiso libre: soltar el permiso de una petición lo devuelve al \
             semáforo"
        );
        assert!(entra(&portero, Prioridad::Normal).is_err(), "con 1 libre, una normal dejaría la reserva en 0");
        dentro.truncate(dentro.len() - 2);
        assert_eq!(portero.libres(), 3, "salen 2 más: 3 permisos libres");
        dentro.push(entra(&portero, Prioridad::Normal).expect("con 3 libres, una normal deja 2: entra"));
        assert!(entra(&portero, Prioridad::Normal).is_err(), "la siguiente dejaría 1");
    }

    #[tokio::test(start_paused = true)]
    async fn en_un_servicio_con_tareas() {
        // Llegan 20 normales a la vez; cada una tarda 10 ms (virtuales).
        let portero = Portero::new(10, 2);
        let mut aceptadas = 0;
        for _ in 0..20 {
            if let Ok(permiso) = entra(&portero, Prioridad::Normal) {
                aceptadas += 1;
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    drop(permiso);
                });
            }
        }
        assert_eq!(aceptadas, 8, "de 20 a la vez, entran 8 normales");
        assert!(entra(&portero, Prioridad::Alta).is_ok(), "una urgente aún entra");
        tokio::time::sleep(Duration::from_millis(11)).await;
        assert_eq!(portero.libres(), 10, "cuando terminan, devuelven sus permisos");
    }

    #[test]
    fn sin_sitio_rechaza_sin_esperar() {
        let portero = Portero::new(3, 1);
        let dentro: Vec<_> = (0..3).map(|_| entra(&portero, Prioridad::Alta).expect("hay sitio")).collect();
        assert_eq!(entra(&portero, Prioridad::Alta).err(), Some(Rechazada), "lleno: una alta se rechaza en el acto");
        assert_eq!(entra(&portero, Prioridad::Normal).err(), Some(Rechazada), "lleno: una normal, también");
        drop(dentro);
        assert_eq!(
            portero.libres(),
            3,
            "al soltar los 3 permisos, vuelven los 3 al semáforo: los rechazos no se quedaron ninguno"
        );
    }

    /// El semáforo de Tokio, con una costura: la primera vez que alguien mira
    /// los permisos libres después de `arma`, justo después de leerlos,
    /// ejecuta `entre_medias`. Es lo que pasaría si el sistema parase ese hilo
    /// en ese instante y otro entrase: el hueco entre mirar y tomar se abre
    /// siempre, no cuando la suerte quiere.
    struct ConCostura {
        real: Arc<Semaphore>,
        entre_medias: Mutex<Option<Box<dyn FnOnce() + Send>>>,
    }

    impl ConCostura {
        fn arma(&self, entre_medias: impl FnOnce() + Send + 'static) {
            *self.entre_medias.lock().unwrap() = Some(Box::new(entre_medias));
        }
    }

    impl Semaforo for ConCostura {
        type Permiso = OwnedSemaphorePermit;

        fn available_permits(&self) -> usize {
            let libres = self.real.available_permits();
            let entre_medias = self.entre_medias.lock().unwrap().take();
            if let Some(entre_medias) = entre_medias {
                entre_medias();
            }
            libres
        }

        fn try_acquire_owned(self: Arc<Self>) -> Result<OwnedSemaphorePermit, TryAcquireError> {
            self.real.clone().try_acquire_owned()
        }
    }

    #[test]
    fn entre_mirar_y_tomar_no_se_cuela_nadie() {
        // 3 permisos, 1 reservado: caben 2 normales. Ya hay una dentro, así
        // que solo cabe una más. Llega una normal y, en cuanto mira los
        // permisos libres, se cuela otra normal.
        let semaforo = Arc::new(ConCostura { real: Arc::new(Semaphore::new(3)), entre_medias: Mutex::new(None) });
        let portero = Portero::con_semaforo(semaforo.clone(), 1);
        let primera = portero.entra(Prioridad::Normal).expect("con todo libre, una normal entra");
        let colada: Arc<Mutex<Option<Result<OwnedSemaphorePermit, Rechazada>>>> = Arc::default();
        let (otro, anota) = (portero.clone(), colada.clone());
        semaforo.arma(move || *anota.lock().unwrap() = Some(otro.entra(Prioridad::Normal)));
        let la_nuestra = portero.entra(Prioridad::Normal);
        let colada = colada.lock().unwrap().take();
        assert!(
            colada.is_some(),
            "la prueba hace entrar a otra normal justo después de que mires los permisos libres, y `entra` no \
             los miró nunca: usa available_permits() para saber si una normal deja la reserva intacta"
        );
        let dentro = usize::from(la_nuestra.is_ok()) + usize::from(colada.as_ref().is_some_and(|r| r.is_ok()));
        assert_eq!(
            (dentro, portero.libres()),
            (1, 1),
            "solo cabía una normal más y entraron {dentro}, con {} permisos libres al final (la reserva es 1). \
             Entre que miraste los permisos libres y tomaste uno se coló otra normal: la prueba la hace entrar \
             justo ahí, como podría hacerlo otro hilo. Toma el permiso primero (try_acquire_owned) y comprueba \
             después; si una normal ha dejado menos de `reserva` libres, suéltalo y rechaza",
            portero.libres()
        );
        drop((primera, la_nuestra, colada));
        assert_eq!(portero.libres(), 3, "al soltarlos, todos los permisos vuelven");
    }

    #[test]
    fn con_hilos_a_la_vez_la_reserva_aguanta() {
        // 3 permisos, 1 reservado: nunca puede haber más de 2 normales dentro.
        // Doce hilos arrancan a la vez y entran y salen sin parar durante 150 ms
        // (o hasta que pillen a más de 2 normales dentro); cada uno cuenta
        // cuántas normales hay dentro mientras tiene la suya. Una carrera
        // solo se ve cuando dos hilos coinciden dentro de `entra`: en una
        // máquina libre se pilla en milisegundos; el resto del tiempo es para
        // una máquina ocupada. Una solución correcta no depende de ese tiempo:
        // solo es lo que tarda esta prueba en darla por buena.
        const LIMITE: usize = 3;
        const RESERVA: usize = 1;
        const HILOS: usize = 12;
        let portero = Portero::new(LIMITE, RESERVA);
        drop(entra(&portero, Prioridad::Normal).expect("con todo libre, una normal entra"));
        let dentro = Arc::new(AtomicUsize::new(0));
        let maximo = Arc::new(AtomicUsize::new(0));
        let basta = Arc::new(AtomicBool::new(false));
        let salida = Arc::new(Barrier::new(HILOS));
        let (tx, rx) = mpsc::channel();
        for _ in 0..HILOS {
            let portero = portero.clone();
            let (dentro, maximo, basta, salida, tx) =
                (dentro.clone(), maximo.clone(), basta.clone(), salida.clone(), tx.clone());
            std::thread::spawn(move || {
                salida.wait();
                let hasta = Instant::now() + Duration::from_millis(150);
                let mut aceptadas = 0u32;
                while !basta.load(Ordering::Relaxed) {
                    for _ in 0..64 {
                        if let Ok(permiso) = portero.entra(Prioridad::Normal) {
                            aceptadas += 1;
                            let ahora = dentro.fetch_add(1, Ordering::SeqCst) + 1;
                            if maximo.fetch_max(ahora, Ordering::SeqCst).max(ahora) > LIMITE - RESERVA {
                                basta.store(true, Ordering::Relaxed); // pillado: no hace falta seguir
                            }
                            for _ in 0..200 {
                                std::hint::spin_loop(); // un rato dentro: así casi siempre hay 2
                            }
                            dentro.fetch_sub(1, Ordering::SeqCst);
                            drop(permiso);
                        }
                    }
                    if Instant::now() >= hasta {
                        basta.store(true, Ordering::Relaxed);
                    }
                }
                let _ = tx.send(aceptadas);
            });
        }
        drop(tx);
        let mut total = 0;
        for _ in 0..HILOS {
            match rx.recv_timeout(Duration::from_secs(5)) {
                Ok(n) => total += n,
                Err(_) => {
                    basta.store(true, Ordering::Relaxed);
                    panic!("los hilos no terminaron en 5 s: ¿alguno espera dentro de `entra`?");
                }
            }
        }
        let maximo = maximo.load(Ordering::SeqCst);
        assert!(
            maximo <= LIMITE - RESERVA,
            "llegó a haber {maximo} normales dentro a la vez, con {LIMITE} permisos y {RESERVA} de reserva: \
             mirar available_permits() y luego tomar el permiso deja un hueco en el que otro hilo se cuela. \
             Toma el permiso primero y comprueba después"
        );
        assert!(total > 0, "ninguna normal entró en {HILOS} hilos: el portero rechaza de más");
        assert_eq!(portero.libres(), LIMITE, "al terminar, todos los permisos han vuelto");
    }
}
