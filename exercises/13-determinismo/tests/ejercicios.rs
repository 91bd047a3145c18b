//! Pruebas del capítulo 13. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/13-determinismo`) y contra la solución
//! (`solutions/13-determinismo`). Un módulo por ejercicio.
//!
//! Todas son deterministas: usan el simulador de `nucleo` con semillas
//! fijas, o llaman a tu código con una hora y un generador inventados.
//!
//! Lo que se comprueba (cada propiedad tiene una prueba que falla si solo
//! esa se rompe):
//!
//! - `protocolo`: ningún ingreso se pierde y cada cajero termina los suyos,
//!   con 2 000 semillas en la escena de la lección y con dos cajeros rápidos,
//!   y con 500 en una de cuatro cajeros (tres rápidos y uno lento) que además
//!   retiran dinero (cantidades negativas) e ingresan cero; y la misma
//!   semilla sigue dando la misma traza.
//! - `invariante`: una historia correcta no tiene pérdidas (también con
//!   retiradas e ingresos de cero); se señala la primera pérdida, con su
//!   índice, lo que había y lo que se leyó; la primera escritura se compara
//!   con el saldo inicial; una lectura vieja puede ser mayor que el saldo
//!   (hubo una retirada) o igual a lo que se escribe (un ingreso de cero), y
//!   sigue siendo una pérdida; y con el simulador, señala exactamente las
//!   semillas que pierden dinero.
//! - `reloj`: el limitador lee la hora del contexto; no pasa de su
//!   capacidad; se rellena a trozos (fracciones de ficha que se acumulan
//!   entre llamadas, con horas que no son milisegundos enteros); si la hora
//!   vuelve atrás, ni entra en pánico ni regala fichas; la misma semilla da
//!   las mismas esperas y semillas distintas, esperas distintas; la espera
//!   está en `0..min(BASE * 2^intento, TOPE)`, llega cerca de ese techo y
//!   tiene resolución de microsegundos; y con muchos reintentos (32, 64,
//!   `u32::MAX`) no se desborda.

mod protocolo {
    use nucleo::sim::Simulador;

    use determinismo::protocolo::{Antifraude, Cajero, Cuenta, Msg};

    const SEMILLAS: u64 = 2_000;
    const INICIAL: i64 = 100;

    /// El resultado de una semilla: saldo final, ingresos terminados por
    /// cada cajero y la traza.
    fn corre(semilla: u64, dos_rapidos: bool) -> (i64, Vec<u32>, String) {
        let mut sim = Simulador::new(semilla, 2);
        let cuenta = sim.spawn(1, Box::new(Cuenta::new(INICIAL)));
        let antifraude = sim.spawn(1, Box::new(Antifraude));
        let a = sim.spawn(0, Box::new(Cajero::rapido(cuenta)));
        let b = if dos_rapidos {
            sim.spawn(1, Box::new(Cajero::rapido(cuenta)))
        } else {
            sim.spawn(1, Box::new(Cajero::lento(cuenta, antifraude, 10)))
        };
        for cantidad in [10, 20, 30] {
            sim.envia(a, Msg::Ingresa(cantidad)).unwrap();
        }
        if dos_rapidos {
            for cantidad in [1, 2, 3] {
                sim.envia(b, Msg::Ingresa(cantidad)).unwrap();
            }
        } else {
            sim.envia(b, Msg::Ingresa(5)).unwrap();
        }
        let pasos = sim.corre(100_000);
        assert!(pasos < 100_000, "semilla {semilla}: tras 100 000 entregas aún hay mensajes en vuelo");
        // Pregunta de uno en uno, para saber de quién es cada respuesta.
        let (mut saldo, mut hechos) = (None, Vec::new());
        for dir in [cuenta, a, b] {
            sim.envia(dir, Msg::Consulta).unwrap();
            sim.corre(100);
            for msg in sim.salida() {
                match msg {
                    Msg::Total(s) => saldo = Some(s),
                    Msg::Hechos(n) => hechos.push(n),
                    _ => {}
                }
            }
        }
        (saldo.expect("la cuenta debe responder Total a Consulta"), hechos, sim.traza().to_string())
    }

    fn comprueba(dos_rapidos: bool, esperado: i64, hechos_esperados: &[u32]) {
        for semilla in 0..SEMILLAS {
            let (saldo, hechos, traza) = corre(semilla, dos_rapidos);
            assert_eq!(
                hechos, hechos_esperados,
                "semilla {semilla}: cada cajero debe terminar todos sus ingresos (Hechos)\n{traza}"
            );
            assert_eq!(
                saldo, esperado,
                "semilla {semilla}: la cuenta debe acabar con {esperado} y tiene {saldo}: un ingreso pisó a otro.\n\
                 Traza de la semilla {semilla}:\n{traza}"
            );
        }
    }

    #[test]
    fn la_escena_de_la_leccion_pasa_con_2000_semillas() {
        comprueba(false, INICIAL + 60 + 5, &[3, 1]);
    }

    #[test]
    fn dos_cajeros_rapidos_pasan_con_2000_semillas() {
        comprueba(true, INICIAL + 60 + 6, &[3, 3]);
    }

    /// Una escena con varios cajeros: cada uno con sus cantidades (negativas
    /// para retirar) y, si es lento, sus rondas de antifraude. Devuelve el
    /// saldo final, lo que terminó cada cajero y la traza.
    fn corre_escena(semilla: u64, cajeros: &[(Option<u32>, &[i64])]) -> (i64, Vec<u32>, String) {
        let mut sim = Simulador::new(semilla, 2);
        let cuenta = sim.spawn(1, Box::new(Cuenta::new(INICIAL)));
        let antifraude = sim.spawn(1, Box::new(Antifraude));
        let mut dirs = Vec::new();
        for (n, (lento, cantidades)) in cajeros.iter().enumerate() {
            let cajero = match lento {
                Some(rondas) => Cajero::lento(cuenta, antifraude, *rondas),
                None => Cajero::rapido(cuenta),
            };
            let dir = sim.spawn(n % 2, Box::new(cajero));
            for &cantidad in *cantidades {
                sim.envia(dir, Msg::Ingresa(cantidad)).unwrap();
            }
            dirs.push(dir);
        }
        let pasos = sim.corre(200_000);
        assert!(pasos < 200_000, "semilla {semilla}: tras 200 000 entregas aún hay mensajes en vuelo");
        let (mut saldo, mut hechos) = (None, Vec::new());
        for dir in std::iter::once(cuenta).chain(dirs) {
            sim.envia(dir, Msg::Consulta).unwrap();
            sim.corre(100);
            for msg in sim.salida() {
                match msg {
                    Msg::Total(s) => saldo = Some(s),
                    Msg::Hechos(n) => hechos.push(n),
                    _ => {}
                }
            }
        }
        (saldo.expect("la cuenta debe responder Total a Consulta"), hechos, sim.traza().to_string())
    }

    #[test]
    fn cuatro_cajeros_con_retiradas_pasan_con_500_semillas() {
        // Tres rápidos y uno lento. Hay retiradas (negativas) e ingresos de
        // cero: una lectura vieja puede ser mayor, menor o igual que el saldo
        // de ahora.
        let escena: [(Option<u32>, &[i64]); 4] =
            [(None, &[10, -20, 30, 0]), (None, &[7, -3, 0]), (None, &[-15, 25, 1]), (Some(3), &[5, -40])];
        let esperado = INICIAL + escena.iter().flat_map(|(_, c)| c.iter()).sum::<i64>();
        let hechos_esperados: Vec<u32> = escena.iter().map(|(_, c)| c.len() as u32).collect();
        for semilla in 0..500 {
            let (saldo, hechos, traza) = corre_escena(semilla, &escena);
            assert_eq!(
                hechos, hechos_esperados,
                "semilla {semilla}, cuatro cajeros: cada cajero debe terminar todos sus ingresos (Hechos)\n{traza}"
            );
            assert_eq!(
                saldo, esperado,
                "semilla {semilla}, cuatro cajeros con retiradas: la cuenta debe acabar con {esperado} y \
                 tiene {saldo}. Con retiradas, una lectura vieja puede ser mayor que el saldo de ahora; \
                 con más de dos cajeros, una escritura puede chocar muchas veces seguidas.\n\
                 Traza de la semilla {semilla}:\n{traza}"
            );
        }
    }

    #[test]
    fn sigue_siendo_determinista() {
        for semilla in [0, 1, 31, 999] {
            assert_eq!(
                corre(semilla, true).2,
                corre(semilla, true).2,
                "semilla {semilla}: la misma semilla debe dar la misma traza; ¿usas algo que no venga del simulador?"
            );
        }
    }
}

mod invariante {
    use std::cell::RefCell;
    use std::rc::Rc;

    use leccion_13::{Antifraude, Cajero, INGRESO_LENTO, INGRESOS_RAPIDO, Msg, RONDAS, SALDO_INICIAL};
    use nucleo::sim::Simulador;
    use nucleo::{Ctx, Dir, Effect, Isolate};

    use determinismo::invariante::{Escritura, Perdida, primera_perdida};

    fn e(leido: i64, nuevo: i64) -> Escritura {
        Escritura { cajero: Dir { shard: 0, id: 0 }, leido, nuevo }
    }

    #[test]
    fn una_historia_correcta_no_tiene_perdidas() {
        assert_eq!(primera_perdida(100, &[]), None, "una historia sin escrituras no tiene pérdidas: None");
        let historia = [e(100, 110), e(110, 130), e(130, 135), e(135, 165)];
        assert_eq!(
            primera_perdida(100, &historia),
            None,
            "cada escritura leyó lo que dejó la anterior: no hay pérdida (¿comparas siempre con el saldo inicial?)"
        );
    }

    #[test]
    fn encuentra_la_primera_perdida() {
        // El segundo cajero leyó 100, pero ya había 110: pisa el primer ingreso.
        let historia = [e(100, 110), e(100, 105), e(105, 125), e(100, 130)];
        assert_eq!(
            primera_perdida(100, &historia),
            Some(Perdida { indice: 1, habia: 110, leido: 100 }),
            "la escritura 1 se basó en 100 cuando la cuenta tenía 110"
        );
        assert_eq!(
            primera_perdida(100, &[e(90, 100)]),
            Some(Perdida { indice: 0, habia: 100, leido: 90 }),
            "la primera escritura se compara con el saldo inicial"
        );
    }

    #[test]
    fn con_retiradas_y_ceros_una_historia_correcta_no_tiene_perdidas() {
        // Una retirada (baja), un ingreso de cero (escribe lo mismo que
        // había) y otro ingreso: todo leído de lo que dejó la anterior.
        let historia = [e(100, 100), e(100, 60), e(60, 60), e(60, 75)];
        assert_eq!(
            primera_perdida(100, &historia),
            None,
            "cada escritura leyó lo que dejó la anterior, aunque unas bajen el saldo y otras lo dejen igual"
        );
    }

    #[test]
    fn una_lectura_vieja_puede_ser_mayor() {
        // Alguien retiró 30 (100 -> 70); el segundo cajero leyó 100, antes
        // de la retirada, y su escritura la borra.
        let historia = [e(100, 70), e(100, 110)];
        assert_eq!(
            primera_perdida(100, &historia),
            Some(Perdida { indice: 1, habia: 70, leido: 100 }),
            "la escritura 1 se basó en 100 cuando la cuenta tenía 70: una lectura vieja también puede \
             ser mayor que lo que hay (hubo una retirada). Compara con !=, no con <"
        );
    }

    #[test]
    fn un_ingreso_de_cero_tambien_puede_pisar() {
        // Un ingreso de cero no cambia lo que leyó su cajero... pero si lo
        // que leyó era viejo, escribirlo devuelve la cuenta a 100 y borra
        // los 20 de la escritura anterior.
        let historia = [e(100, 120), e(100, 100)];
        assert_eq!(
            primera_perdida(100, &historia),
            Some(Perdida { indice: 1, habia: 120, leido: 100 }),
            "la escritura 1 (un ingreso de cero) leyó 100 cuando había 120, y al escribir 100 borró los \
             20 anteriores: aunque no cambie lo que leyó, una escritura vieja pisa. No te saltes las \
             escrituras con nuevo == leido"
        );
    }

    /// La cuenta de la lección 13, que además anota cada escritura en una
    /// lista compartida con la prueba (un `Rc`: el simulador corre en este
    /// mismo hilo).
    struct CuentaQueAnota {
        saldo: i64,
        historia: Rc<RefCell<Vec<Escritura>>>,
    }

    impl Isolate for CuentaQueAnota {
        type Msg = Msg;

        fn handle(&mut self, msg: Msg, ctx: &mut Ctx) -> Effect<Msg> {
            match msg {
                Msg::Lee => Effect::Reply(Msg::Saldo(self.saldo)),
                Msg::Escribe { leido, nuevo } => {
                    let cajero = match ctx.remitente() {
                        nucleo::Remitente::Isolate(d) => d,
                        nucleo::Remitente::Fuera => Dir { shard: 99, id: 99 },
                    };
                    self.historia.borrow_mut().push(Escritura { cajero, leido, nuevo });
                    self.saldo = nuevo;
                    Effect::Reply(Msg::Escrito)
                }
                Msg::Consulta => Effect::Reply(Msg::Total(self.saldo)),
                _ => Effect::Noop,
            }
        }
    }

    /// La escena de la lección 13, con la cuenta que anota.
    fn escena(semilla: u64) -> (i64, Vec<Escritura>) {
        let historia = Rc::new(RefCell::new(Vec::new()));
        let mut sim = Simulador::new(semilla, 2);
        let cuenta = sim.spawn(1, Box::new(CuentaQueAnota { saldo: SALDO_INICIAL, historia: historia.clone() }));
        let antifraude = sim.spawn(1, Box::new(Antifraude));
        let rapido = sim.spawn(0, Box::new(Cajero::rapido(cuenta)));
        let lento = sim.spawn(1, Box::new(Cajero::lento(cuenta, antifraude, RONDAS)));
        for cantidad in INGRESOS_RAPIDO {
            sim.envia(rapido, Msg::Ingresa(cantidad)).unwrap();
        }
        sim.envia(lento, Msg::Ingresa(INGRESO_LENTO)).unwrap();
        sim.corre(10_000);
        sim.envia(cuenta, Msg::Consulta).unwrap();
        sim.corre(10);
        let saldo = match sim.salida().as_slice() {
            [Msg::Total(s)] => *s,
            otra => panic!("la cuenta debía responder Total: {otra:?}"),
        };
        let escrituras = historia.borrow().clone();
        (saldo, escrituras)
    }

    #[test]
    fn senala_exactamente_las_semillas_que_pierden_dinero() {
        let esperado = SALDO_INICIAL + INGRESOS_RAPIDO.iter().sum::<i64>() + INGRESO_LENTO;
        let mut encontradas = 0;
        for semilla in 0..500 {
            let (saldo, escrituras) = escena(semilla);
            let perdida = primera_perdida(SALDO_INICIAL, &escrituras);
            assert_eq!(
                perdida.is_some(),
                saldo != esperado,
                "semilla {semilla}: el saldo final es {saldo} (esperado {esperado}) y tu comprobación dice {perdida:?}.\n\
                 Escrituras: {escrituras:?}"
            );
            if let Some(p) = perdida {
                encontradas += 1;
                assert_eq!(
                    p.leido, escrituras[p.indice].leido,
                    "semilla {semilla}: la pérdida lleva lo que leyó la escritura de su índice, y dice {p:?}: \
                     ¿mezclas el índice o los campos?"
                );
                assert!(
                    p.habia != p.leido,
                    "semilla {semilla}: una pérdida es una escritura que leyó algo distinto de lo que había, y esta \
                     dice {p:?}: habia y leido no pueden coincidir"
                );
            }
        }
        assert!(encontradas > 0, "en 500 semillas, alguna pierde dinero");
    }
}

mod reloj {
    use std::time::Duration;

    use nucleo::{Azar, Ctx, Dir, Remitente};

    use determinismo::reloj::{BASE, Limitador, TOPE, espera_reintento};

    fn ctx_en(ms: u64) -> Ctx {
        ctx_en_us(ms * 1_000)
    }

    fn ctx_en_us(us: u64) -> Ctx {
        Ctx::nuevo(Dir { shard: 0, id: 0 }, Remitente::Fuera, 1).con_ahora(Duration::from_micros(us))
    }

    fn cuantos_pasan(limitador: &mut Limitador, ms: u64, intentos: u32) -> u32 {
        let ctx = ctx_en(ms);
        (0..intentos).filter(|_| limitador.permite(&ctx)).count() as u32
    }

    #[test]
    fn el_limitador_usa_la_hora_del_contexto() {
        let mut l = Limitador::new(3, 10);
        assert_eq!(cuantos_pasan(&mut l, 0, 5), 3, "empieza lleno: pasan 3 de 5");
        assert_eq!(
            cuantos_pasan(&mut l, 100, 5),
            1,
            "100 ms después (hora del contexto, no del sistema) se ha rellenado una ficha: lee ctx.ahora()"
        );
        assert_eq!(cuantos_pasan(&mut l, 150, 5), 0, "a los 150 ms solo hay media ficha");
        assert_eq!(
            cuantos_pasan(&mut l, 200, 5),
            1,
            "a los 200 ms, la media ficha que sobró a los 150 y la media nueva hacen una: las fracciones de ficha se \
             acumulan entre llamadas"
        );
    }

    #[test]
    fn el_cubo_no_pasa_de_su_capacidad() {
        let mut l = Limitador::new(3, 10);
        assert_eq!(cuantos_pasan(&mut l, 0, 3), 3, "el cubo empieza lleno: pasan sus 3 fichas");
        assert_eq!(
            cuantos_pasan(&mut l, 60_000, 10),
            3,
            "tras un minuto parado, el cubo está lleno, pero solo caben 3 fichas"
        );
    }

    #[test]
    fn acumula_fracciones_de_ficha() {
        // 3 fichas por segundo y una llamada cada 100 ms: 0,3 fichas cada vez.
        let mut l = Limitador::new(1, 3);
        assert_eq!(cuantos_pasan(&mut l, 0, 1), 1, "empieza lleno: pasa 1");
        for ms in [100, 200, 300] {
            assert_eq!(cuantos_pasan(&mut l, ms, 1), 0, "a los {ms} ms aún no hay una ficha entera");
        }
        assert_eq!(
            cuantos_pasan(&mut l, 400, 1),
            1,
            "a los 400 ms se han juntado 0,3 + 0,3 + 0,3 + 0,3 = 1,2 fichas: las fracciones se acumulan \
             de una llamada a otra (no las redondees a enteros)"
        );
    }

    #[test]
    fn la_hora_no_se_redondea_a_milisegundos() {
        // 3 fichas por segundo: una ficha cada 333 333,3 µs.
        let mut l = Limitador::new(1, 3);
        let ctx = ctx_en_us(0);
        assert!(l.permite(&ctx), "empieza lleno");
        assert!(!l.permite(&ctx_en_us(333_333)), "a los 333 333 µs hay 0,999999 fichas: no pasa");
        assert!(
            l.permite(&ctx_en_us(333_334)),
            "a los 333 334 µs ya hay 1,000002 fichas: pasa. Si la hora se redondea a milisegundos \
             (as_millis), ese microsegundo se pierde; usa as_secs_f64"
        );
    }

    #[test]
    fn si_la_hora_vuelve_atras_no_regala_fichas() {
        let mut l = Limitador::new(2, 10);
        assert_eq!(cuantos_pasan(&mut l, 1_000, 3), 2, "empieza lleno: pasan 2 de 3");
        let pasan = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cuantos_pasan(&mut l, 500, 3)))
            .unwrap_or_else(|_| {
                panic!(
                    "con una hora anterior a la última (500 ms después de 1000 ms), permite entró en \
                     pánico: restar dos Duration con - falla si la segunda es mayor; usa saturating_sub"
                )
            });
        assert_eq!(pasan, 0, "si la hora vuelve atrás no ha pasado tiempo: no hay fichas nuevas");
    }

    #[test]
    fn muchos_reintentos_no_desbordan() {
        for intento in [20, 31, 32, 33, 63, 64, 1_000, u32::MAX] {
            for semilla in 0..20 {
                let mut ctx = ctx_en(0).con_azar(Azar::new(semilla));
                let espera =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| espera_reintento(intento, &mut ctx)))
                        .unwrap_or_else(|_| {
                            panic!(
                                "con intento = {intento}, espera_reintento entró en pánico: 2^intento \
                                 desborda (un u32 solo llega a 2^31). Pon el tope antes de multiplicar \
                                 (intento.min(...), saturating_pow o checked_pow)"
                            )
                        });
                assert!(
                    espera < TOPE,
                    "intento {intento}: la espera es {}, y debe estar entre 0 y {}, sin llegar",
                    medidas::duracion(espera),
                    medidas::duracion(TOPE)
                );
            }
        }
    }

    #[test]
    fn la_espera_llega_cerca_de_su_techo_en_microsegundos() {
        let todas: Vec<Vec<Duration>> = (0..200).map(esperas).collect();
        for intento in 0..8 {
            let techo = (BASE * 2u32.pow(intento as u32)).min(TOPE);
            let mayor = todas.iter().map(|e| e[intento]).max().unwrap();
            assert!(
                mayor > techo * 9 / 10,
                "intento {intento}: en 200 semillas la espera más larga fue {}, y el techo es {}: el rango \
                 es 0..min(BASE * 2^intento, TOPE)",
                medidas::duracion(mayor),
                medidas::duracion(techo)
            );
        }
        let en_ms_enteros = todas.iter().flatten().filter(|e| e.subsec_micros() % 1_000 == 0).count();
        assert!(
            en_ms_enteros < 100,
            "{en_ms_enteros} de 2400 esperas son milisegundos exactos: la espera se elige en \
             microsegundos (ctx.azar().hasta(techo en µs)), no en milisegundos"
        );
    }

    fn esperas(semilla: u64) -> Vec<Duration> {
        let mut ctx = ctx_en(0).con_azar(Azar::new(semilla));
        (0..12).map(|intento| espera_reintento(intento, &mut ctx)).collect()
    }

    #[test]
    fn la_misma_semilla_da_las_mismas_esperas() {
        for semilla in 0..20 {
            let (una, otra) = (esperas(semilla), esperas(semilla));
            assert!(
                una == otra,
                "semilla {semilla}: la misma semilla dio {} y luego {}: usa ctx.azar(), no la hora",
                medidas::duraciones(&una),
                medidas::duraciones(&otra)
            );
        }
    }

    #[test]
    fn semillas_distintas_dan_esperas_distintas() {
        let distintas: std::collections::HashSet<Vec<Duration>> = (0..20).map(esperas).collect();
        assert!(
            distintas.len() >= 19,
            "20 semillas dieron solo {} secuencias distintas: el azar debe salir de ctx.azar(), que es el de la semilla",
            distintas.len()
        );
    }

    #[test]
    fn la_espera_crece_y_tiene_tope() {
        for semilla in 0..50 {
            for (intento, espera) in esperas(semilla).into_iter().enumerate() {
                let techo = (BASE * 2u32.pow(intento as u32)).min(TOPE);
                assert!(
                    espera < techo,
                    "intento {intento}: la espera es {}, y debe estar entre 0 y {}, sin llegar",
                    medidas::duracion(espera),
                    medidas::duracion(techo)
                );
            }
        }
        let mayor = (0..50).map(|s| esperas(s)[11]).max().unwrap();
        assert!(
            mayor > TOPE / 2,
            "con el intento 11 el techo es el TOPE; en 50 semillas alguna espera pasa de {}",
            medidas::duracion(TOPE / 2)
        );
    }
}
