//! Pruebas del capítulo 01. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/01-casi-todo-es-esperar`) y contra la solución
//! (`solutions/01-casi-todo-es-esperar`). Un módulo por ejercicio.
//!
//! Lo que comprueba cada módulo:
//!
//! - `tramos`: la clase sale de la CPU frente a la pared, nunca del nombre ni
//!   de lo que dura; el límite es exactamente la mitad, también con
//!   nanosegundos impares y en tramos larguísimos, donde decide un
//!   nanosegundo que la coma flotante pierde; ningún tramo hace entrar la
//!   cuenta en pánico (`Duration::MAX`); `reparte` suma la pared, no la CPU.
//! - `aforo`: cuentas en nanosegundos enteros, sin pasar por milisegundos ni
//!   por coma flotante (que se equivoca justo en los casos exactos); la ley
//!   de Little redondea hacia arriba; nada desborda ni entra en pánico.
//! - `cronometro`: el tiempo dentro de cada sondeo es ocupado (también el
//!   del último, el que da `Ready`), el de entre sondeos es espera, cada
//!   `poll` cuenta, se pasa el mismo `Context` al future envuelto y `mide`
//!   no despierta a nadie por su cuenta (no sondea en vano).

/// Falla con `mensaje` si las dos duraciones no son iguales, y las escribe
/// como el libro («10 ms», no «10ms»).
#[track_caller]
fn misma_duracion(obtenida: std::time::Duration, esperada: std::time::Duration, mensaje: &str) {
    assert!(
        obtenida == esperada,
        "{mensaje} (esperaba {}, no {})",
        medidas::duracion(esperada),
        medidas::duracion(obtenida)
    );
}

mod tramos {
    use std::time::Duration;

    use espera::tramos::{Clase, Tramo, clasifica, reparte};

    use super::misma_duracion;

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    fn tramo(nombre: &str, pared: Duration, cpu: Duration) -> Tramo {
        Tramo { nombre: nombre.to_string(), pared, cpu }
    }

    #[test]
    fn clasifica_por_la_cpu_no_por_el_nombre() {
        // Una espera activa: el hilo da vueltas preguntando por un candado.
        let activa = tramo("espera: candado (espera activa)", us(2_000), us(1_990));
        assert_eq!(
            clasifica(&activa),
            Clase::Calculo,
            "una espera activa ocupa la CPU todo el tramo: es cálculo, diga lo que diga el nombre"
        );
        // El hilo quería calcular, pero el sistema lo tuvo parado (un fallo de página, otro proceso...).
        let parado = tramo("calcula: JSON", us(40), us(1));
        assert_eq!(
            clasifica(&parado),
            Clase::Espera,
            "1 µs de CPU en 40 µs de tramo es espera: decide con `cpu` y `pared`, no con el nombre"
        );
    }

    #[test]
    fn un_calculo_largo_sigue_siendo_calculo() {
        let largo = tramo("calcula: comprime 2 MiB", us(20_000), us(19_800));
        assert_eq!(clasifica(&largo), Clase::Calculo, "durar mucho no convierte un cálculo en espera");
        let corta = tramo("espera: caché en la misma máquina", us(30), us(2));
        assert_eq!(clasifica(&corta), Clase::Espera, "durar poco no convierte una espera en cálculo");
    }

    #[test]
    fn el_limite_es_la_mitad() {
        let justo = tramo("mitad", Duration::from_nanos(1_000), Duration::from_nanos(500));
        assert_eq!(clasifica(&justo), Clase::Calculo, "con la CPU justo la mitad del tramo, es cálculo");
        let casi = tramo("casi", Duration::from_nanos(1_000), Duration::from_nanos(499));
        assert_eq!(clasifica(&casi), Clase::Espera, "con menos de la mitad, es espera");
    }

    #[test]
    fn el_limite_con_nanosegundos_impares() {
        // La mitad de 1001 ns son 500,5 ns: 500 ns de CPU no llegan.
        let impar = tramo("impar", Duration::from_nanos(1_001), Duration::from_nanos(500));
        assert_eq!(
            clasifica(&impar),
            Clase::Espera,
            "500 ns de CPU en 1001 ns de tramo es menos de la mitad: espera. ¿Dividiste `pared / 2`? \
             La división entera redondea hacia abajo (1001 / 2 = 500)"
        );
        let justo = tramo("impar", Duration::from_nanos(1_001), Duration::from_nanos(501));
        assert_eq!(clasifica(&justo), Clase::Calculo, "501 ns de CPU en 1001 ns de tramo pasan de la mitad: cálculo");
        let mas_cpu = tramo("ruido de medida", Duration::from_nanos(999), Duration::from_nanos(1_000));
        assert_eq!(clasifica(&mas_cpu), Clase::Calculo, "si la CPU medida pasa de la pared (ruido), es cálculo");
    }

    #[test]
    fn el_limite_sin_coma_flotante() {
        // 10⁸ s y 1 ns de pared: la mitad son 5·10⁷ s y medio nanosegundo. Un
        // f64 guarda unas 16 cifras y aquí el nanosegundo es la 18.ª.
        let pared = Duration::new(100_000_000, 1);
        let debajo = tramo("largo", pared, Duration::from_secs(50_000_000));
        assert_eq!(
            clasifica(&debajo),
            Clase::Espera,
            "5·10⁷ s de CPU en 10⁸ s y 1 ns de pared se quedan medio nanosegundo por debajo de la mitad: \
             espera. ¿Comparaste con as_secs_f64()? En coma flotante ese nanosegundo se pierde al \
             redondear; compara las Duration (o los nanosegundos en u128), que son exactas"
        );
        let encima = tramo("largo", pared, Duration::new(50_000_000, 1));
        assert_eq!(clasifica(&encima), Clase::Calculo, "5·10⁷ s y 1 ns de CPU pasan de la mitad: cálculo");
    }

    #[test]
    fn no_desborda_con_tramos_enormes() {
        let enorme = tramo("enorme", Duration::MAX, Duration::MAX);
        assert_eq!(
            clasifica(&enorme),
            Clase::Calculo,
            "`cpu * 2` no cabe en una Duration si `cpu` es enorme: compara sin multiplicar \
             (por ejemplo, lo que no fue CPU frente a lo que sí)"
        );
        let mitad = tramo("mitad", Duration::MAX, Duration::from_secs(u64::MAX / 2 + 1));
        assert_eq!(clasifica(&mitad), Clase::Calculo, "algo más de la mitad de Duration::MAX es cálculo");
        let cuarto = tramo("cuarto", Duration::MAX, Duration::from_secs(u64::MAX / 4));
        assert_eq!(clasifica(&cuarto), Clase::Espera, "una cuarta parte de Duration::MAX es espera");
    }

    #[test]
    fn reparte_una_peticion() {
        // Una traza como la de `cargo run -p leccion-01 --release`.
        let traza = vec![
            tramo("calcula: prepara la consulta", us(8), us(8)),
            tramo("espera: base de datos", us(10_193), us(17)),
            tramo("calcula: prepara la respuesta", us(9), us(8)),
        ];
        let reparto = reparte(&traza);
        let mensaje = "suma el tiempo de pared (`pared`, no `cpu`) de cada tramo en su clase";
        misma_duracion(reparto.calculo, us(17), &format!("cálculo: {mensaje}"));
        misma_duracion(reparto.espera, us(10_193), &format!("espera: {mensaje}"));
    }

    #[test]
    fn reparte_una_traza_vacia() {
        let reparto = reparte(&[]);
        misma_duracion(reparto.calculo, Duration::ZERO, "sin tramos no hay tiempo de cálculo que repartir");
        misma_duracion(reparto.espera, Duration::ZERO, "sin tramos no hay tiempo de espera que repartir");
    }
}

mod aforo {
    use std::time::Duration;

    use espera::aforo::{fraccion_de_espera, hilos_necesarios, por_segundo};

    const DIEZ_US: Duration = Duration::from_micros(10);
    const DIEZ_MS: Duration = Duration::from_millis(10);

    #[test]
    fn fraccion_del_ejemplo() {
        let f = fraccion_de_espera(DIEZ_US, DIEZ_MS);
        let esperado = 10_000.0 / 10_010.0;
        assert!(
            (f - esperado).abs() < 1e-12,
            "10 µs de cálculo y 10 ms de espera: la espera es 10 000/10 010 ≈ 0,999001, no {} \
             (¿usaste as_millis? 10 µs son 0 ms)",
            medidas::numero(f, 6)
        );
    }

    /// Falla con `mensaje` si la fracción no es exactamente `esperada`, y la
    /// escribe con coma decimal.
    #[track_caller]
    fn misma_fraccion(obtenida: f64, esperada: f64, mensaje: &str) {
        assert!(
            obtenida == esperada,
            "{mensaje} (esperaba {}, no {})",
            medidas::numero(esperada, 6),
            medidas::numero(obtenida, 6)
        );
    }

    #[test]
    fn fraccion_en_los_extremos() {
        misma_fraccion(fraccion_de_espera(Duration::ZERO, Duration::ZERO), 0.0, "sin tiempo, la fracción es 0");
        misma_fraccion(fraccion_de_espera(DIEZ_MS, Duration::ZERO), 0.0, "sin espera, la fracción es 0");
        misma_fraccion(fraccion_de_espera(Duration::ZERO, DIEZ_MS), 1.0, "sin cálculo, la fracción es 1");
    }

    #[test]
    fn por_segundo_del_ejemplo() {
        assert_eq!(
            por_segundo(DIEZ_MS + DIEZ_US),
            99,
            "un hilo bloqueado 10,01 ms por petición completa 99 en un segundo (redondea hacia abajo)"
        );
        assert_eq!(por_segundo(DIEZ_US), 100_000, "si solo calculara 10 µs por petición: 100 000 por segundo");
        assert_eq!(por_segundo(Duration::from_secs(3)), 0, "una petición de 3 s no cabe en un segundo");
        assert_eq!(por_segundo(Duration::ZERO), u64::MAX, "por_peticion cero: u64::MAX, no un pánico");
    }

    #[test]
    fn por_segundo_con_microsegundos() {
        // Del orden de lo que mide la lección: unos 17 µs de cálculo por petición.
        assert_eq!(
            por_segundo(Duration::from_nanos(17_300)),
            57_803,
            "10⁹ ns / 17 300 ns = 57 803: cuenta en nanosegundos, as_millis() los redondea a 0"
        );
    }

    #[test]
    fn hilos_necesarios_redondea_hacia_arriba() {
        assert_eq!(
            hilos_necesarios(10_000, DIEZ_MS + DIEZ_US),
            101,
            "10 000 peticiones/s × 10,01 ms = 100,1 peticiones en curso: hacen falta 101 hilos"
        );
        assert_eq!(hilos_necesarios(1_000, DIEZ_MS), 10, "1 000/s × 10 ms = 10 hilos exactos");
        assert_eq!(hilos_necesarios(100, DIEZ_US), 1, "aunque sea una fracción de hilo, hace falta uno");
        assert_eq!(hilos_necesarios(0, DIEZ_MS), 0, "sin peticiones no hace falta ningún hilo");
    }

    #[test]
    fn fraccion_sin_desbordar() {
        misma_fraccion(
            fraccion_de_espera(Duration::MAX, Duration::MAX),
            0.5,
            "con dos Duration enormes, `calculo + espera` desborda (pánico): suma los nanosegundos en u128",
        );
        misma_fraccion(
            fraccion_de_espera(Duration::from_nanos(1), Duration::from_nanos(3)),
            0.75,
            "1 ns de cálculo y 3 ns de espera: la espera es 3/4",
        );
    }

    #[test]
    fn por_segundo_sin_coma_flotante() {
        // 10⁹ / 8 = 125 000 000 exactos, pero 1.0 / 8e-9 da 124 999 999,99... en f64.
        for (ns, esperado) in
            [(8, 125_000_000), (64, 15_625_000), (512, 1_953_125), (3, 333_333_333), (1, 1_000_000_000)]
        {
            assert_eq!(
                por_segundo(Duration::from_nanos(ns)),
                esperado,
                "10⁹ ns / {ns} ns = {}: divide enteros (u128); con f64, `1.0 / segundos` se queda \
                 a una millonésima de {} y al truncar pierde una petición",
                medidas::entero(esperado),
                medidas::entero(esperado)
            );
        }
    }

    #[test]
    fn por_segundo_con_peticiones_larguisimas() {
        assert_eq!(
            por_segundo(Duration::from_secs(1 << 55)),
            0,
            "2⁵⁵ s son 2⁶⁴ × 1 953 125 ns: no caben en un u64 y `as u64` los deja en 0. \
             Divide en u128, sin convertir antes"
        );
        assert_eq!(por_segundo(Duration::MAX), 0, "una petición de Duration::MAX no cabe en un segundo");
    }

    #[test]
    fn hilos_necesarios_con_productos_exactos() {
        // 300 × 0,07 s son 21 hilos exactos; en f64, 300.0 * 0.07 = 21.000000000000004 y ceil da 22.
        assert_eq!(
            hilos_necesarios(300, Duration::from_millis(70)),
            21,
            "300/s × 70 ms = 21 peticiones en curso, ni una más: multiplica enteros (ns) y redondea \
             hacia arriba con div_ceil; en coma flotante, 300.0 × 0.07 se pasa de 21 y ceil da 22"
        );
        assert_eq!(
            hilos_necesarios(700, Duration::from_millis(70)),
            49,
            "700/s × 70 ms = 49 peticiones en curso exactas: con enteros y div_ceil salen 49; en coma flotante, 700.0 \
             × 0.07 da 49,00000000000001 y ceil sube a 50"
        );
        assert_eq!(hilos_necesarios(3, Duration::from_nanos(1)), 1, "tres nanosegundos de trabajo: un hilo");
        assert_eq!(hilos_necesarios(1, Duration::from_nanos(1_000_000_001)), 2, "1,000000001 hilos son 2");
    }

    #[test]
    fn hilos_necesarios_sin_desbordar() {
        assert_eq!(
            hilos_necesarios(u64::MAX, Duration::from_secs(1)),
            u64::MAX,
            "u64::MAX peticiones/s de 1 s: u64::MAX en curso (el producto cabe en u128)"
        );
        assert_eq!(
            hilos_necesarios(u64::MAX, Duration::from_secs(2)),
            u64::MAX,
            "si el resultado no cabe en un u64, u64::MAX"
        );
        assert_eq!(
            hilos_necesarios(u64::MAX, Duration::MAX),
            u64::MAX,
            "u64::MAX × Duration::MAX en ns no cabe ni en u128: usa checked_mul y, si no cabe, u64::MAX"
        );
    }

    #[test]
    fn hilos_para_un_servicio_grande() {
        assert_eq!(
            hilos_necesarios(1_000_000, Duration::from_millis(50)),
            50_000,
            "un millón de peticiones por segundo de 50 ms cada una: 50 000 en curso"
        );
    }
}

mod cronometro {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use std::time::Duration;

    use espera::cronometro::{Medida, mide};
    use tokio::time::{advance, sleep};

    use super::misma_duracion;

    /// Falla si `medida` no es la esperada, con las duraciones como las
    /// escribe el libro.
    #[track_caller]
    fn misma_medida(medida: &Medida, esperada: &Medida, mensaje: &str) {
        misma_duracion(medida.ocupado, esperada.ocupado, &format!("tiempo ocupado: {mensaje}"));
        misma_duracion(medida.esperando, esperada.esperando, &format!("tiempo esperando: {mensaje}"));
        assert_eq!(medida.sondeos, esperada.sondeos, "sondeos: {mensaje}");
    }

    const MS: Duration = Duration::from_millis(1);

    /// Envuelve el future de prueba y cuenta sus sondeos. Si pasa de mil, algo
    /// lo está sondeando sin que nadie lo despierte: la prueba falla al momento
    /// en vez de quedarse dando vueltas.
    struct Vigilado<F> {
        interior: Pin<Box<F>>,
        sondeos: u32,
    }

    impl<F: Future> Future for Vigilado<F> {
        type Output = F::Output;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
            self.sondeos += 1;
            assert!(
                self.sondeos <= 1_000,
                "el future envuelto se sondeó más de mil veces sin que nadie lo despertara: \
                 ¿llama `mide` a wake() por su cuenta? Devuelve el Pending del future tal cual"
            );
            self.interior.as_mut().poll(cx)
        }
    }

    /// `mide` sobre el future vigilado, con un plazo de guarda en tiempo
    /// simulado: si nadie despierta a la tarea, falla con un mensaje.
    async fn mide_vigilado<F: Future>(fut: F) -> (F::Output, Medida) {
        let vigilado = Vigilado { interior: Box::pin(fut), sondeos: 0 };
        tokio::time::timeout(Duration::from_secs(3_600), mide(vigilado)).await.expect(
            "`mide` no terminó: ¿pasas el mismo `cx` al future envuelto para que su Waker despierte a la tarea?",
        )
    }

    #[tokio::test(start_paused = true)]
    async fn un_future_que_solo_espera() {
        let (valor, medida) = mide_vigilado(async {
            sleep(10 * MS).await;
            sleep(20 * MS).await;
            7
        })
        .await;
        assert_eq!(valor, 7, "`mide` debe devolver el resultado del future envuelto");
        misma_medida(
            &medida,
            &Medida { ocupado: Duration::ZERO, esperando: 30 * MS, sondeos: 3 },
            "dos esperas de 10 y 20 ms: tres sondeos, 30 ms esperando y nada ocupado",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn cuenta_el_trabajo_dentro_de_los_sondeos() {
        // `advance` adelanta el reloj en pausa DENTRO del sondeo y luego cede el
        // control: para el cronómetro es como si ese sondeo hubiera calculado 4 ms.
        let (valor, medida) = mide_vigilado(async {
            advance(4 * MS).await;
            sleep(10 * MS).await;
            "hecho"
        })
        .await;
        assert_eq!(valor, "hecho", "`mide` debe devolver, tal cual, el resultado del future envuelto (\"hecho\")");
        misma_duracion(medida.ocupado, 4 * MS, "los 4 ms que pasan dentro de un sondeo son tiempo ocupado");
        misma_duracion(
            medida.esperando,
            10 * MS,
            "solo los huecos ENTRE sondeos son espera: 10 ms, sin contar los 4 ms de trabajo",
        );
        assert_eq!(medida.sondeos, 3, "advance cede una vez y sleep otra: tres sondeos");
    }

    #[tokio::test(start_paused = true)]
    async fn un_future_listo_se_sondea_una_vez() {
        let (valor, medida) = mide_vigilado(std::future::ready(5)).await;
        assert_eq!(valor, 5, "`mide` debe devolver, tal cual, el resultado del future envuelto (ready(5) da 5)");
        misma_medida(
            &medida,
            &Medida { ocupado: Duration::ZERO, esperando: Duration::ZERO, sondeos: 1 },
            "un future que ya está listo: un sondeo, sin espera",
        );
    }

    #[test]
    fn cada_poll_cuenta_un_sondeo() {
        // Sin runtime: tokio-test sondea a mano y cuenta los despertares.
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let mut tarea = tokio_test::task::spawn(mide(async move { rx.await.unwrap() }));
        tokio_test::assert_pending!(tarea.poll(), "sin mensaje, el future envuelto espera");
        tokio_test::assert_pending!(tarea.poll(), "sigue esperando");
        tx.send(9).unwrap();
        assert!(tarea.is_woken(), "`mide` debe pasar el Waker al future envuelto (usa el mismo cx)");
        let (valor, medida) = tokio_test::assert_ready!(tarea.poll());
        assert_eq!(valor, 9, "`mide` debe devolver, tal cual, el valor que recibe el future envuelto por el canal (9)");
        assert_eq!(medida.sondeos, 3, "tres llamadas a poll: tres sondeos");
    }

    #[test]
    fn mide_no_despierta_a_nadie_por_su_cuenta() {
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let mut tarea = tokio_test::task::spawn(mide(async move { rx.await.unwrap() }));
        for vez in 1..=3 {
            tokio_test::assert_pending!(tarea.poll());
            assert!(
                !tarea.is_woken(),
                "tras el sondeo {vez}, nadie ha mandado nada y la tarea ya está despierta: `mide` no debe \
                 llamar a wake() (sondear sin motivo es una espera activa). Devuelve el Pending tal cual"
            );
        }
        tx.send(1).unwrap();
        assert!(tarea.is_woken(), "el mensaje llegó: ahora sí la despierta el future envuelto");
        let (_, medida) = tokio_test::assert_ready!(tarea.poll());
        assert_eq!(
            medida.sondeos, 4,
            "tres sondeos en Pending y el que da Ready: cuatro llamadas a poll, cuatro sondeos. Si salen más, algo \
             sondea sin que nadie despierte; si salen menos, no cuentas alguno"
        );
    }

    #[test]
    fn el_ultimo_sondeo_tambien_cuenta() {
        // Sin runtime, tokio::time::Instant es el reloj de verdad. `thread::sleep`
        // dura AL MENOS lo pedido, así que los 20 ms son una cota segura.
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let mut tarea = tokio_test::task::spawn(mide(async move {
            let v = rx.await.unwrap();
            std::thread::sleep(20 * MS); // trabajo dentro del sondeo que da Ready
            v
        }));
        tokio_test::assert_pending!(tarea.poll());
        tx.send(4).unwrap();
        let (valor, medida) = tokio_test::assert_ready!(tarea.poll());
        assert_eq!(valor, 4, "`mide` debe devolver, tal cual, el valor que recibe el future envuelto por el canal (4)");
        assert!(
            medida.ocupado >= 20 * MS,
            "el último sondeo trabajó 20 ms antes de dar Ready, pero `ocupado` es {}: \
             cuenta también la duración del sondeo que termina",
            medidas::duracion(medida.ocupado)
        );
        assert_eq!(medida.sondeos, 2, "un sondeo en Pending y el que da Ready: dos sondeos (el último también cuenta)");
    }
}
