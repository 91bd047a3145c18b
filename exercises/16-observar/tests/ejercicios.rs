//! Pruebas del capítulo 16. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/16-observar`) y contra la solución (`solutions/16-observar`).
//! Un módulo por ejercicio. Todas usan el reloj en pausa o muestras
//! inventadas, salvo una que mira un *runtime* de verdad (con un límite).

use std::time::Duration;

use tracing_subscriber::layer::SubscriberExt;

/// Milisegundos con decimales, para no probar solo números redondos.
fn ms(x: f64) -> Duration {
    Duration::from_secs_f64(x / 1000.0)
}

/// Propiedades de `sondeos` (cada prueba rompe si falla solo la suya):
///
/// 1. Un sondeo por cada `poll` del *future* instrumentado.
/// 2. El tiempo ocupado suma solo lo que pasa dentro (entre entrada y
///    salida), no el tiempo entre sondeos ni el que la tarea pasa dormida.
/// 3. Cada tramo lleva su propia cuenta, también anidados.
/// 4. Dos tramos con el mismo nombre son dos medidas, cada una con lo suyo.
/// 5. El informe trae una medida por tramo creado, en orden de creación:
///    también los cerrados y los que nunca se sondearon.
/// 6. En un *runtime* de verdad, una tarea con su tramo da sus entradas (los
///    sondeos y la entrada con la que `Instrumented` suelta el *future*) y el
///    tiempo que dormía no cuenta como ocupado.
/// 7. Un tramo con varias entradas abiertas a la vez (en dos hilos, o que se
///    entra a sí mismo) cuenta cada entrada, y su tiempo ocupado corre
///    mientras haya al menos una abierta: ese rato cuenta una sola vez.
///    También cuando un hilo sale justo mientras otro entra.
/// 8. Un tramo nuevo que recibe el `Id` de uno ya cerrado (el registro los
///    recicla) lleva su propia medida: ni hereda ni pisa la del cerrado.
mod sondeos {
    use super::*;
    use observar::sondeos::{ContadorDeSondeos, Medida};
    use std::task::Poll;
    use tokio::time::advance;
    use tokio_test::{assert_pending, assert_ready};
    use tracing::{Instrument, info_span};

    fn con_contador() -> (ContadorDeSondeos, tracing::subscriber::DefaultGuard) {
        let contador = ContadorDeSondeos::new();
        let guarda = tracing::subscriber::set_default(tracing_subscriber::registry().with(contador.clone()));
        (contador, guarda)
    }

    fn medida(nombre: &'static str, sondeos: u64, ocupado: Duration) -> Medida {
        Medida { nombre, sondeos, ocupado }
    }

    /// Un informe como lo escribe el libro: «peticion: 2 sondeos, 7,75 ms».
    fn texto(informe: &[Medida]) -> String {
        if informe.is_empty() {
            return "ninguna medida".to_string();
        }
        let partes: Vec<String> = informe
            .iter()
            .map(|m| format!("{}: {} sondeos, {}", m.nombre, m.sondeos, medidas::duracion(m.ocupado)))
            .collect();
        partes.join("; ")
    }

    /// Falla con `mensaje` si el informe no es el esperado, y escribe los dos.
    #[track_caller]
    fn mismo_informe(obtenido: Vec<Medida>, esperado: &[Medida], mensaje: &str) {
        assert!(obtenido == esperado, "{mensaje}\n  esperaba: {}\n  obtuve:   {}", texto(esperado), texto(&obtenido));
    }

    #[tokio::test(start_paused = true)]
    async fn un_sondeo_por_cada_poll() {
        let (contador, _g) = con_contador();
        let mut restantes = 4;
        let trabajo = std::future::poll_fn(move |cx| {
            if restantes == 0 {
                return Poll::Ready(());
            }
            restantes -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        });
        let mut tarea = tokio_test::task::spawn(trabajo.instrument(info_span!("trabajo")));
        for _ in 0..4 {
            assert_pending!(tarea.poll());
        }
        assert_ready!(tarea.poll());
        mismo_informe(
            contador.informe(),
            &[medida("trabajo", 5, Duration::ZERO)],
            "el future se sondeó 5 veces (4 Pending y 1 Ready) sin que pasara el tiempo",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn el_tiempo_ocupado_solo_cuenta_lo_de_dentro() {
        let (contador, _g) = con_contador();
        let tramo = info_span!("peticion");
        {
            let _dentro = tramo.enter();
            advance(ms(3.25)).await;
        }
        advance(ms(50.0)).await; // fuera del tramo: no cuenta
        {
            let _dentro = tramo.enter();
            advance(ms(4.5)).await;
        }
        advance(ms(20.0)).await; // tampoco
        drop(tramo);
        mismo_informe(
            contador.informe(),
            &[medida("peticion", 2, ms(7.75))],
            "dentro del tramo pasaron 3,25 + 4,5 ms; los 70 ms de fuera no cuentan",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn los_tramos_anidados_llevan_cuentas_separadas() {
        let (contador, _g) = con_contador();
        let padre = info_span!("padre");
        {
            let _p = padre.enter();
            advance(ms(2.0)).await;
            let hijo = info_span!("hijo");
            {
                let _h = hijo.enter();
                advance(ms(5.0)).await;
            }
            advance(ms(1.5)).await;
        }
        mismo_informe(
            contador.informe(),
            &[medida("padre", 1, ms(8.5)), medida("hijo", 1, ms(5.0))],
            "el padre estuvo dentro 2 + 5 + 1,5 ms (el hijo corre dentro de él); el hijo, 5 ms",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn dos_tramos_con_el_mismo_nombre_son_dos_medidas() {
        let (contador, _g) = con_contador();
        let a = info_span!("peticion");
        let b = info_span!("peticion");
        for (tramo, dura) in [(&a, 1.0), (&b, 3.0), (&a, 1.25)] {
            let _dentro = tramo.enter();
            advance(ms(dura)).await;
        }
        mismo_informe(
            contador.informe(),
            &[medida("peticion", 2, ms(2.25)), medida("peticion", 1, ms(3.0))],
            "dos peticiones distintas: la primera entró dos veces (1 + 1,25 ms), la segunda una (3 ms)",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn el_informe_guarda_los_cerrados_y_los_nunca_sondeados() {
        let (contador, _g) = con_contador();
        let abierto = info_span!("abierto");
        let nunca = info_span!("nunca");
        drop(nunca);
        let cerrado = info_span!("cerrado");
        {
            let _dentro = cerrado.enter();
            advance(ms(1.0)).await;
        }
        drop(cerrado);
        let ultimo = info_span!("ultimo");
        {
            let _dentro = ultimo.enter();
            advance(ms(0.5)).await;
        }
        mismo_informe(
            contador.informe(),
            &[
                medida("abierto", 0, Duration::ZERO),
                medida("nunca", 0, Duration::ZERO),
                medida("cerrado", 1, ms(1.0)),
                medida("ultimo", 1, ms(0.5)),
            ],
            "una medida por tramo creado, en orden de creación, aunque se haya cerrado o no se haya sondeado",
        );
        drop(abierto);
    }

    #[tokio::test(start_paused = true)]
    async fn un_tramo_que_se_entra_a_si_mismo() {
        let (contador, _g) = con_contador();
        let tramo = info_span!("recursivo");
        let fuera = tramo.enter();
        advance(ms(1.0)).await;
        let dentro = tramo.enter(); // el mismo tramo, otra vez, sin haber salido
        advance(ms(2.0)).await;
        drop(dentro);
        advance(ms(0.5)).await;
        drop(fuera);
        advance(ms(10.0)).await; // fuera del todo: no cuenta
        mismo_informe(
            contador.informe(),
            &[medida("recursivo", 2, ms(3.5))],
            "dos entradas (2 sondeos); estuvo dentro de los 0 a los 3,5 ms, con una o con dos entradas abiertas: \
             ese rato cuenta una vez. Cuenta las entradas abiertas y para el reloj al cerrar la última",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_tramo_dentro_en_dos_hilos_a_la_vez() {
        use std::sync::mpsc;
        let contador = ContadorDeSondeos::new();
        let despacho = tracing::Dispatch::new(tracing_subscriber::registry().with(contador.clone()));
        let tramo = tracing::dispatcher::with_default(&despacho, || info_span!("compartido"));
        // Dos hilos entran en el mismo tramo. La prueba les dice cuándo entrar y cuándo
        // salir, y entre paso y paso adelanta el reloj en pausa, que los dos hilos leen.
        let hilo = || {
            let (tramo, reloj) = (tramo.clone(), tokio::runtime::Handle::current());
            let (orden, recibe) = mpsc::channel::<()>();
            let (avisa, hecho) = mpsc::channel::<()>();
            let h = std::thread::spawn(move || {
                let _reloj = reloj.enter(); // el reloj en pausa de la prueba, también aquí
                recibe.recv().unwrap();
                let dentro = tramo.enter();
                avisa.send(()).unwrap();
                recibe.recv().unwrap();
                drop(dentro);
                avisa.send(()).unwrap();
            });
            let paso = move || {
                orden.send(()).unwrap();
                hecho.recv_timeout(Duration::from_secs(5)).expect("el hilo no respondió");
            };
            (h, paso)
        };
        let (a, paso_a) = hilo();
        let (b, paso_b) = hilo();
        paso_a(); // a los 0 ms entra el hilo A
        advance(ms(2.0)).await;
        paso_b(); // a los 2 ms entra el hilo B, con A todavía dentro
        advance(ms(3.0)).await;
        paso_a(); // a los 5 ms sale A; B sigue dentro
        advance(ms(4.0)).await;
        paso_b(); // a los 9 ms sale B
        a.join().unwrap();
        b.join().unwrap();
        mismo_informe(
            contador.informe(),
            &[medida("compartido", 2, ms(9.0))],
            "dos hilos entraron a la vez (2 sondeos) y el tramo tuvo alguna entrada abierta de los 0 a los 9 ms. \
             Un solo «dentro desde» por tramo se pisa con la segunda entrada; uno por entrada cuenta dos veces el \
             rato en que coinciden",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn uno_sale_mientras_otro_entra_y_el_reloj_no_se_para() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicU32, Ordering};
        const VUELTAS: u32 = 5_000;
        let contador = ContadorDeSondeos::new();
        let despacho = tracing::Dispatch::new(tracing_subscriber::registry().with(contador.clone()));
        let tramo = tracing::dispatcher::with_default(&despacho, || info_span!("relevo"));
        // Los dos hilos se citan sin dormirse (despertar tarda mucho más que entrar o salir
        // del tramo): en la cita número `n`, cada uno suma una llegada y espera a que haya
        // `2 * n`. Con un solo núcleo no hay «a la vez»: ahí ceden el paso en seguida.
        let llegadas = Arc::new(AtomicU32::new(0));
        let paciencia = if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 { 1u32 << 20 } else { 0 };
        let citarse = move |n: u32| {
            llegadas.fetch_add(1, Ordering::SeqCst);
            let desde = std::time::Instant::now();
            let mut esperando = 0u32;
            while llegadas.load(Ordering::SeqCst) < 2 * n {
                esperando = esperando.wrapping_add(1);
                if esperando < paciencia {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now(); // que el otro tenga dónde correr
                }
                if esperando.is_multiple_of(4096) {
                    assert!(
                        desde.elapsed() < Duration::from_secs(10),
                        "el otro hilo no llegó a la cita en 10 s: ¿se quedó parado (o entró en pánico) dentro de \
                         tu capa?"
                    );
                }
            }
        };
        // Dos hilos se relevan dentro del tramo. En cada vuelta, el que está dentro sale y el
        // otro entra, los dos a la vez; luego el que entró adelanta el reloj en pausa 1 ms.
        // Siempre hay una entrada abierta mientras el reloj avanza, sea cual sea el orden en
        // que salen y entran.
        let hilos: Vec<_> = (0..2u32)
            .map(|quien| {
                let (tramo, reloj, citarse) = (tramo.clone(), tokio::runtime::Handle::current(), citarse.clone());
                std::thread::spawn(move || {
                    let _reloj = reloj.enter(); // el reloj en pausa de la prueba, también aquí
                    let mut dentro = (quien == 0).then(|| tramo.enter());
                    for vuelta in 0..VUELTAS {
                        citarse(2 * vuelta + 1);
                        if vuelta % 2 == quien {
                            // El que sale se entretiene un poco, cada vuelta distinto, para caer
                            // en todos los momentos de la entrada del otro.
                            for _ in 0..(vuelta * 7) % 64 {
                                std::hint::spin_loop();
                            }
                            drop(dentro.take());
                        } else {
                            dentro = Some(tramo.enter());
                        }
                        citarse(2 * vuelta + 2);
                        if dentro.is_some() {
                            reloj.block_on(advance(ms(1.0)));
                        }
                    }
                    drop(dentro);
                })
            })
            .collect();
        for hilo in hilos {
            hilo.join().expect("el hilo no debía entrar en pánico dentro de tu capa");
        }
        let total = Duration::from_millis(u64::from(VUELTAS));
        mismo_informe(
            contador.informe(),
            &[medida("relevo", u64::from(VUELTAS) + 1, total)],
            &format!(
                "en cada una de las {VUELTAS} vueltas un hilo salió del tramo mientras el otro entraba, y luego el \
                 que entró adelantó el reloj 1 ms: {} ocupado. Si te sale menos, alguna entrada se quedó sin reloj \
                 en marcha: si miras cuántas hay abiertas en un paso (con `extensions()`) y pones la marca en otro \
                 (con `extensions_mut()`), el hilo que sale puede parar el reloj entre los dos, y tu entrada, que \
                 vio otra abierta, ya no lo pone en marcha. Mira y apunta en un solo paso",
                medidas::duracion(total)
            ),
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_id_reciclado_es_un_tramo_nuevo() {
        use std::collections::HashMap;
        let (contador, _g) = con_contador();
        // El registro de tracing recicla el `Id` de un tramo cerrado para uno nuevo: al cabo
        // de unos miles de tramos, el hueco de uno cerrado vuelve a dar el mismo número. La
        // prueba crea y cierra 10 000 tramos, uno detrás de otro, cada uno con lo suyo.
        const TRAMOS: u64 = 10_000;
        let mut primero_con_id: HashMap<tracing::Id, u64> = HashMap::new();
        let mut repetido = None;
        let mut esperado = Vec::new();
        for i in 0..TRAMOS {
            let tramo = info_span!("corto");
            let id = tramo.id().expect("con tu capa instalada, cada tramo tiene su Id");
            let primero = *primero_con_id.entry(id).or_insert(i);
            if primero != i && repetido.is_none() {
                repetido = Some((primero, i));
            }
            // El tramo nº i: 1, 2 o 3 entradas, y i + 1 µs dentro.
            let (sondeos, dentro) = (1 + i % 3, Duration::from_micros(i + 1));
            {
                let _dentro = tramo.enter();
                advance(dentro).await;
            }
            for _ in 1..sondeos {
                let _dentro = tramo.enter();
            }
            drop(tramo);
            esperado.push(medida("corto", sondeos, dentro));
        }
        let (primero, despues) = repetido.expect(
            "la prueba quería que el registro reciclara el Id de algún tramo cerrado y no lo hizo: \
             hay que crear más tramos (esto es de la prueba, no de tu capa)",
        );
        let obtenido = contador.informe();
        let reciclado = format!(
            "el registro recicla los Id: el tramo nº {despues} recibió el mismo que el nº {primero}, ya cerrado. \
             Si guardas las medidas en un mapa por Id, el tramo nuevo pisa (o suma en) la del cerrado; guarda en el \
             propio tramo (`extensions_mut`) dónde está su medida: el registro vacía sus extensiones al cerrarlo"
        );
        assert!(
            obtenido.len() == esperado.len(),
            "se crearon {TRAMOS} tramos y el informe trae {} medidas. {reciclado}",
            obtenido.len()
        );
        let distinto = (0..esperado.len()).find(|&i| obtenido[i] != esperado[i]).unwrap_or(esperado.len());
        assert!(
            distinto == esperado.len(),
            "la medida del tramo nº {distinto} no es la suya\n  esperaba: {}\n  obtuve:   {}\n{reciclado}",
            texto(&esperado[distinto..=distinto]),
            texto(&obtenido[distinto..=distinto]),
        );
    }

    #[tokio::test(start_paused = true)]
    async fn en_un_runtime_dormir_no_es_estar_ocupado() {
        let (contador, _g) = con_contador();
        let (aviso, llega) = tokio::sync::oneshot::channel::<()>();
        let tarea = tokio::spawn(
            async {
                for _ in 0..3 {
                    tokio::task::yield_now().await;
                }
                let _ = llega.await;
            }
            .instrument(info_span!("tarea")),
        );
        // Mientras esta prueba duerme, la tarea llega a `llega.await` y espera 10 ms dormida.
        tokio::time::sleep(ms(10.0)).await;
        aviso.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), tarea)
            .await
            .expect("la tarea instrumentada no terminó (¿se quedó parada en tu capa?)")
            .expect("la tarea no entra en pánico");
        mismo_informe(
            contador.informe(),
            &[medida("tarea", 6, Duration::ZERO)],
            "3 yield_now y una espera son 5 sondeos, y `Instrumented` entra una vez más en el tramo para \
             soltar el future: 6 entradas; los 10 ms dormida no son tiempo ocupado",
        );
    }
}

/// Propiedades de `atascados` (cada prueba rompe si falla solo la suya):
///
/// 1. Un trabajador aparcado (contador impar) no está atascado, aunque no se mueva.
/// 2. Uno despierto (par) con el contador y el tiempo ocupado quietos al menos
///    `umbral` sí: el bloqueado no vuelve al planificador, así que no se
///    aparca ni hace mantenimiento (que es cuando publica su tiempo ocupado).
/// 3. Uno saturado y sano tampoco se aparca, pero su tiempo ocupado sube en
///    cada tic de mantenimiento: no está atascado. La quietud cuenta desde el
///    último cambio de cualquiera de los dos valores.
/// 4. El umbral se cumple justo en el límite y no un microsegundo antes.
/// 5. Solo cuenta el final: quieto antes y en marcha ahora no es atascado.
/// 6. El tiempo sale de los instantes de las muestras, no del número de muestras.
/// 7. Devuelve todos los atascados, en orden creciente.
/// 8. Con menos de dos muestras, ninguno.
/// 9. Con un *runtime* de verdad, señala el único trabajador bloqueado y no
///    señala a dos trabajadores saturados.
mod atascado {
    use super::*;
    use observar::atascado::{Muestra, atascados, muestra};

    /// Las muestras como las escribe el libro, una por línea.
    fn texto(muestras: &[Muestra]) -> String {
        let lineas: Vec<String> = muestras
            .iter()
            .map(|m| {
                format!(
                    "a los {}: ocupado {}; aparcados y despertados {:?}",
                    medidas::duracion(m.instante),
                    medidas::duraciones(&m.ocupado),
                    m.aparca
                )
            })
            .collect();
        lineas.join("\n")
    }

    /// Una muestra en el instante `t` (ms), con el tiempo ocupado y el contador de cada trabajador.
    fn m(t: f64, ocupado: &[f64], aparca: &[u64]) -> Muestra {
        Muestra { instante: ms(t), ocupado: ocupado.iter().map(|&x| ms(x)).collect(), aparca: aparca.to_vec() }
    }

    #[test]
    fn aparcado_no_es_atascado() {
        // El 0 duerme aparcado todo el rato; el 1 trabaja y se aparca a menudo.
        let muestras =
            [m(0.0, &[5.0, 5.0], &[7, 10]), m(250.0, &[5.0, 80.0], &[7, 30]), m(500.0, &[5.0, 160.0], &[7, 52])];
        assert_eq!(atascados(&muestras, ms(100.0)), Vec::<usize>::new(), "un contador impar es un trabajador dormido");
    }

    #[test]
    fn despierto_y_quieto_del_todo_es_atascado() {
        // El 0 se despertó (par) y no ha vuelto al planificador: ni se aparca ni hace
        // mantenimiento, así que tampoco publica tiempo ocupado.
        // El 1 está muy ocupado, pero se aparca y despierta: está sano.
        let muestras =
            [m(0.0, &[12.0, 40.0], &[8, 20]), m(150.0, &[12.0, 170.0], &[8, 26]), m(300.0, &[12.0, 290.0], &[8, 34])];
        assert_eq!(atascados(&muestras, ms(200.0)), [0], "el 0 lleva 300 ms despierto sin moverse");
    }

    #[test]
    fn saturado_y_sano_no_es_atascado() {
        // El 0 está saturado y sano: siempre encuentra trabajo, así que nunca se aparca
        // (contador par y quieto), pero su tiempo ocupado sube en cada tic de mantenimiento.
        // El 1 trabajó al principio (su tiempo ocupado subía) y desde los 160 ms está
        // bloqueado: ni su contador ni su tiempo ocupado se mueven.
        let muestras = [
            m(0.0, &[40.0, 10.0], &[8, 14]),
            m(80.0, &[118.5, 60.0], &[8, 14]),
            m(160.0, &[197.25, 61.0], &[8, 14]),
            m(300.0, &[335.0, 61.0], &[8, 14]),
            m(380.0, &[414.5, 61.0], &[8, 14]),
        ];
        let vistos = atascados(&muestras, ms(200.0));
        assert!(
            !vistos.contains(&0),
            "el 0 no se aparca, pero su tiempo ocupado sube en cada muestra: está saturado y sano, no atascado \
             (viste {vistos:?}). Un contador quieto no basta: mira también el tiempo ocupado"
        );
        assert_eq!(
            vistos,
            [1],
            "el 1 lleva de 160 a 380 ms (220 ms) con el contador y el tiempo ocupado quietos: atascado, aunque \
             antes trabajara. La quietud cuenta desde el último cambio de cualquiera de los dos"
        );
        assert_eq!(atascados(&muestras, ms(220.0)), [1], "220 ms quieto con un umbral de 220 ms: atascado");
        assert_eq!(
            atascados(&muestras, ms(220.0) + Duration::from_micros(1)),
            Vec::<usize>::new(),
            "la quietud del 1 empieza en la muestra de los 160 ms, la primera con sus valores finales"
        );
    }

    #[test]
    fn el_umbral_se_cumple_justo_en_el_limite() {
        let muestras = [m(0.0, &[0.0], &[2]), m(33.3, &[0.0], &[2]), m(66.7, &[0.0], &[2])];
        assert_eq!(atascados(&muestras, ms(66.7)), [0], "66,7 ms quieto con un umbral de 66,7 ms: atascado");
        assert_eq!(
            atascados(&muestras, ms(66.7) + Duration::from_micros(1)),
            Vec::<usize>::new(),
            "un microsegundo menos de lo pedido: todavía no"
        );
    }

    #[test]
    fn solo_cuenta_como_esta_al_final() {
        // El 0 estuvo quieto 400 ms, pero ya se movió; el 1 lleva 120 ms quieto desde su último cambio.
        let muestras = [
            m(0.0, &[1.0, 1.0], &[4, 2]),
            m(200.0, &[1.0, 50.0], &[4, 6]),
            m(300.0, &[1.0, 60.0], &[4, 8]),
            m(400.0, &[1.0, 60.0], &[4, 8]),
            m(410.0, &[300.0, 60.0], &[6, 8]),
            m(420.0, &[301.0, 60.0], &[6, 8]),
        ];
        assert_eq!(atascados(&muestras, ms(100.0)), [1], "el 0 ya se movió; el 1 lleva de 300 a 420 ms quieto");
    }

    #[test]
    fn el_tiempo_sale_de_los_instantes_no_de_contar_muestras() {
        // Muestras irregulares: tres que cubren 200 ms y, en otro caso, diez que cubren 9 ms.
        let pocas = [m(0.0, &[0.0], &[2]), m(5.0, &[0.0], &[2]), m(200.0, &[0.0], &[2])];
        assert_eq!(atascados(&pocas, ms(150.0)), [0], "tres muestras, pero 200 ms quieto");
        let muchas: Vec<Muestra> = (0..10).map(|i| m(i as f64, &[0.0], &[2])).collect();
        assert_eq!(atascados(&muchas, ms(150.0)), Vec::<usize>::new(), "diez muestras, pero solo 9 ms");
    }

    #[test]
    fn devuelve_todos_los_atascados_en_orden() {
        let muestras = [m(0.0, &[0.0; 4], &[1, 6, 3, 10]), m(90.0, &[0.0, 0.0, 0.0, 0.0], &[1, 6, 5, 10])];
        assert_eq!(atascados(&muestras, ms(90.0)), [1, 3], "el 1 y el 3 llevan 90 ms despiertos y quietos");
    }

    #[test]
    fn con_menos_de_dos_muestras_ninguno() {
        assert_eq!(atascados(&[], Duration::ZERO), Vec::<usize>::new(), "sin muestras no hay nada que decir");
        assert_eq!(
            atascados(&[m(50.0, &[0.0, 0.0], &[2, 4])], Duration::ZERO),
            Vec::<usize>::new(),
            "con una sola muestra no se sabe si se mueve"
        );
    }

    #[test]
    fn en_un_runtime_de_verdad_senala_al_bloqueado() {
        use std::sync::mpsc;
        use std::time::Instant;
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let (empezo, ha_empezado) = mpsc::channel();
        let (soltar, suelta) = mpsc::channel::<()>();
        rt.spawn(async move {
            empezo.send(()).unwrap();
            // El error que se busca: una espera bloqueante dentro de una tarea (con un límite).
            let _ = suelta.recv_timeout(Duration::from_secs(5));
        });
        ha_empezado.recv_timeout(Duration::from_secs(5)).expect("la tarea bloqueante no llegó a empezar en 5 s");
        std::thread::sleep(Duration::from_millis(20)); // que el otro trabajador se aparque
        let inicio = Instant::now();
        let mut muestras = Vec::new();
        for _ in 0..7 {
            muestras.push(muestra(&rt.metrics(), inicio.elapsed()));
            std::thread::sleep(Duration::from_millis(10));
        }
        let resultado = atascados(&muestras, Duration::from_millis(40));
        drop(soltar);
        rt.shutdown_timeout(Duration::from_secs(1));
        assert_eq!(resultado.len(), 1, "hay un trabajador bloqueado y otro dormido; muestras:\n{}", texto(&muestras));
    }

    #[test]
    fn en_un_runtime_de_verdad_el_saturado_no_es_atascado() {
        use std::collections::HashMap;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Arc, Mutex};
        use std::thread::ThreadId;
        use std::time::Instant;
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let parar = Arc::new(AtomicBool::new(false));
        // Cuántas tareas ha sondeado cada hilo trabajador.
        let sondeos: Arc<Mutex<HashMap<ThreadId, u64>>> = Arc::default();
        // Ocho tareas que nunca acaban de trabajar y ceden en cada vuelta: los dos
        // trabajadores siempre tienen algo que hacer y no se aparcan nunca.
        for _ in 0..8 {
            let (parar, sondeos) = (parar.clone(), sondeos.clone());
            rt.spawn(async move {
                while !parar.load(Ordering::Relaxed) {
                    *sondeos.lock().unwrap().entry(std::thread::current().id()).or_default() += 1;
                    tokio::task::yield_now().await;
                }
            });
        }
        let cuenta = || sondeos.lock().unwrap().clone();
        // Las muestras no se toman cada tantos milisegundos sino cuando los dos hilos han
        // sondeado 300 tareas más: varios tics de mantenimiento (uno cada 61), así que su
        // tiempo ocupado ha subido entre muestra y muestra, vaya como vaya de rápida la máquina.
        let inicio = Instant::now();
        let limite = inicio + Duration::from_secs(10);
        let mut muestras = Vec::new();
        let mut antes: HashMap<ThreadId, u64> = HashMap::new();
        while muestras.len() < 6 {
            loop {
                let ahora = cuenta();
                if ahora.len() == 2 && ahora.iter().all(|(h, &n)| n >= antes.get(h).copied().unwrap_or(0) + 300) {
                    break;
                }
                assert!(Instant::now() < limite, "los dos trabajadores no llegaron a sondear las tareas: {ahora:?}");
                std::thread::sleep(Duration::from_millis(1));
            }
            muestras.push(muestra(&rt.metrics(), inicio.elapsed()));
            antes = cuenta();
        }
        parar.store(true, Ordering::Relaxed);
        rt.shutdown_timeout(Duration::from_secs(1));
        // Con un umbral minúsculo basta que un trabajador despierto tenga dos muestras
        // iguales seguidas para señalarlo; los saturados no las tienen.
        let resultado = atascados(&muestras, Duration::from_micros(1));
        assert_eq!(
            resultado,
            Vec::<usize>::new(),
            "los dos trabajadores están saturados y sanos (nunca se aparcan, pero su tiempo ocupado sube): \
             ninguno está atascado. Muestras:\n{}",
            texto(&muestras)
        );
    }
}

/// Propiedades de `seguir` (cada prueba rompe si falla solo la suya):
///
/// 1. Cada evento de una petición está dentro de `peticion{id}` y del tramo
///    de su paso (`autentica`, `consulta`).
/// 2. El tramo `consulta` cuelga del de la petición aunque corra en otra tarea.
/// 3. Cada tramo cubre su paso entero, esperas incluidas: cada tramo vive lo
///    que su paso (autenticar tarda 3 ms de reloj y consultar lo que diga la
///    prueba, así que un tramo puesto solo alrededor del evento se nota), se
///    entra en él desde que nace y se sale por última vez al cerrarse; al
///    acabar, todos están cerrados. (Milisegundos enteros: los
///    temporizadores de Tokio redondean al milisegundo.)
/// 4. Dos peticiones a la vez, en la misma tarea, no mezclan sus eventos.
mod seguir {
    use super::*;
    use observar::seguir::atiende;
    use std::fmt::Debug;
    use std::sync::{Arc, Mutex};
    use tokio::time::Instant;
    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id};
    use tracing::{Event, Subscriber};
    use tracing_subscriber::layer::{Context, Layer};
    use tracing_subscriber::registry::LookupSpan;

    #[derive(Debug, Clone)]
    struct TramoVisto {
        nombre: &'static str,
        id: Option<u64>,
        padre: Option<usize>,
        creado: Instant,
        cerrado: Option<Instant>,
        /// La primera vez que se entró en él y la última que se salió.
        primera_entrada: Option<Instant>,
        ultima_salida: Option<Instant>,
    }

    #[derive(Default)]
    struct Visto {
        tramos: Vec<TramoVisto>,
        eventos: Vec<String>,
    }

    /// Un suscriptor de prueba: apunta cada tramo (con su padre y cuándo nace y muere)
    /// y cada evento con su cadena de tramos.
    #[derive(Clone, Default)]
    struct Registro(Arc<Mutex<Visto>>);

    struct Indice(usize);

    struct CampoId(Option<u64>);
    impl Visit for CampoId {
        fn record_u64(&mut self, campo: &Field, valor: u64) {
            if campo.name() == "id" {
                self.0 = Some(valor);
            }
        }
        fn record_i64(&mut self, campo: &Field, valor: i64) {
            if campo.name() == "id" {
                self.0 = u64::try_from(valor).ok();
            }
        }
        fn record_debug(&mut self, campo: &Field, valor: &dyn Debug) {
            if campo.name() == "id" {
                self.0 = format!("{valor:?}").parse().ok();
            }
        }
    }

    struct Mensaje(String);
    impl Visit for Mensaje {
        fn record_debug(&mut self, campo: &Field, valor: &dyn Debug) {
            if campo.name() == "message" {
                self.0 = format!("{valor:?}");
            }
        }
    }

    impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Registro {
        fn on_new_span(&self, atributos: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
            let mut campo = CampoId(None);
            atributos.record(&mut campo);
            let tramo = ctx.span(id).expect("el tramo existe");
            let padre = tramo.parent().and_then(|p| p.extensions().get::<Indice>().map(|i| i.0));
            let mut visto = self.0.lock().unwrap();
            visto.tramos.push(TramoVisto {
                nombre: atributos.metadata().name(),
                id: campo.0,
                padre,
                creado: Instant::now(),
                cerrado: None,
                primera_entrada: None,
                ultima_salida: None,
            });
            tramo.extensions_mut().insert(Indice(visto.tramos.len() - 1));
        }

        fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
            if let Some(i) = ctx.span(id).and_then(|t| t.extensions().get::<Indice>().map(|i| i.0)) {
                self.0.lock().unwrap().tramos[i].primera_entrada.get_or_insert_with(Instant::now);
            }
        }

        fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
            if let Some(i) = ctx.span(id).and_then(|t| t.extensions().get::<Indice>().map(|i| i.0)) {
                self.0.lock().unwrap().tramos[i].ultima_salida = Some(Instant::now());
            }
        }

        fn on_close(&self, id: Id, ctx: Context<'_, S>) {
            if let Some(i) = ctx.span(&id).and_then(|t| t.extensions().get::<Indice>().map(|i| i.0)) {
                self.0.lock().unwrap().tramos[i].cerrado = Some(Instant::now());
            }
        }

        fn on_event(&self, evento: &Event<'_>, ctx: Context<'_, S>) {
            let mut linea = String::new();
            if let Some(ambito) = ctx.event_scope(evento) {
                for tramo in ambito.from_root() {
                    let nombre = tramo.name();
                    if nombre == "peticion" {
                        let i = tramo.extensions().get::<Indice>().map(|i| i.0);
                        let id = i.and_then(|i| self.0.lock().unwrap().tramos[i].id);
                        match id {
                            Some(id) => linea.push_str(&format!("peticion{{id={id}}} > ")),
                            None => linea.push_str("peticion{id=?} > "),
                        }
                    } else {
                        linea.push_str(&format!("{nombre} > "));
                    }
                }
            }
            let mut mensaje = Mensaje(String::new());
            evento.record(&mut mensaje);
            linea.push_str(&mensaje.0);
            self.0.lock().unwrap().eventos.push(linea);
        }
    }

    fn con_registro() -> (Registro, tracing::subscriber::DefaultGuard) {
        let registro = Registro::default();
        let guarda = tracing::subscriber::set_default(tracing_subscriber::registry().with(registro.clone()));
        (registro, guarda)
    }

    async fn con_limite<F: std::future::Future>(f: F) -> F::Output {
        tokio::time::timeout(Duration::from_secs(60), f).await.expect("la petición no terminó en 60 s (reloj en pausa)")
    }

    fn de_la_peticion(id: u64) -> Vec<String> {
        vec![
            format!("peticion{{id={id}}} > empieza"),
            format!("peticion{{id={id}}} > autentica > autenticado"),
            format!("peticion{{id={id}}} > consulta > la base de datos contesta"),
            format!("peticion{{id={id}}} > responde"),
        ]
    }

    #[tokio::test(start_paused = true)]
    async fn cada_evento_dentro_de_su_peticion_y_su_paso() {
        let (registro, _g) = con_registro();
        assert_eq!(con_limite(atiende(7, ms(40.0))).await, 71, "el servicio tiene que seguir haciendo lo mismo");
        let eventos = registro.0.lock().unwrap().eventos.clone();
        assert_eq!(eventos, de_la_peticion(7), "cada evento, con la cadena de tramos en la que ocurrió");
    }

    #[tokio::test(start_paused = true)]
    async fn la_consulta_cuelga_de_la_peticion_aunque_vaya_en_otra_tarea() {
        let (registro, _g) = con_registro();
        con_limite(atiende(3, ms(12.5))).await;
        let visto = registro.0.lock().unwrap();
        let nombre_del_padre = |nombre: &str| {
            let tramo = visto.tramos.iter().find(|t| t.nombre == nombre);
            let tramo = tramo.unwrap_or_else(|| panic!("no hay ningún tramo «{nombre}»"));
            tramo.padre.map(|p| visto.tramos[p].nombre)
        };
        assert_eq!(nombre_del_padre("consulta"), Some("peticion"), "el padre del tramo de la consulta");
        assert_eq!(nombre_del_padre("autentica"), Some("peticion"), "el padre del tramo de autentica");
        assert_eq!(nombre_del_padre("peticion"), None, "la petición es la raíz");
    }

    #[tokio::test(start_paused = true)]
    async fn cada_tramo_cubre_su_paso_entero() {
        let (registro, _g) = con_registro();
        con_limite(atiende(5, ms(37.0))).await;
        let visto = registro.0.lock().unwrap();
        // Autenticar tarda 3 ms de reloj y la consulta 37: cada paso consume tiempo, así que un
        // tramo que solo envuelve el evento del final dura cero y se nota.
        for (nombre, dura) in [("peticion", ms(40.0)), ("autentica", ms(3.0)), ("consulta", ms(37.0))] {
            let tramo = visto.tramos.iter().find(|t| t.nombre == nombre);
            let tramo = tramo.unwrap_or_else(|| panic!("no hay ningún tramo «{nombre}»"));
            let cerrado = tramo.cerrado.unwrap_or_else(|| panic!("el tramo «{nombre}» sigue abierto al acabar"));
            let vive = cerrado - tramo.creado;
            assert!(
                vive == dura,
                "lo que vive el tramo «{nombre}» (autenticar tarda 3 ms y la consulta espera 37 ms): esperaba {}, \
                 no {}",
                medidas::duracion(dura),
                medidas::duracion(vive)
            );
            assert!(
                (tramo.primera_entrada, tramo.ultima_salida) == (Some(tramo.creado), Some(cerrado)),
                "el tramo «{nombre}» vive lo que su paso, pero no se entró en él todo el rato (nace a los {}, se \
                 cierra a los {}): cada sondeo del paso tiene que ocurrir dentro del tramo. Instrumenta el \
                 future entero (#[instrument] o .instrument), no lo entres solo alrededor del evento",
                medidas::duracion(tramo.creado - visto.tramos[0].creado),
                medidas::duracion(cerrado - visto.tramos[0].creado)
            );
        }
    }

    #[tokio::test(start_paused = true)]
    async fn dos_peticiones_a_la_vez_no_se_mezclan() {
        let (registro, _g) = con_registro();
        let (a, b) = con_limite(async { tokio::join!(atiende(1, ms(30.0)), atiende(2, ms(10.0))) }).await;
        assert_eq!(
            (a, b),
            (11, 21),
            "cada petición devuelve lo suyo (su id × 10 + 1): la 1 da 11 y la 2 da 21. Instrumentar no cambia lo que \
             hace el código: si no sale, ¿has tocado algo más que los tramos?"
        );
        let eventos = registro.0.lock().unwrap().eventos.clone();
        for e in &eventos {
            assert_eq!(
                e.matches("peticion{").count(),
                1,
                "un evento dentro de dos peticiones: «{e}»\ntodos: {eventos:#?}"
            );
        }
        for id in [1, 2] {
            let suyos: Vec<String> =
                eventos.iter().filter(|e| e.starts_with(&format!("peticion{{id={id}}} "))).cloned().collect();
            assert_eq!(suyos, de_la_peticion(id), "los eventos de la petición {id}\ntodos: {eventos:#?}");
        }
    }
}
