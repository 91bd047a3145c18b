//! Pruebas del capítulo 13. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/13-determinismo`) y contra la solución
//! (`solutions/13-determinismo`). Un módulo por ejercicio.
//!
//! Todas son deterministas: usan el simulador de `nucleo` con semillas
//! fijas, o llaman a tu código con una hora y un generador inventados.

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
        assert_eq!(primera_perdida(100, &[]), None);
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
                assert_eq!(p.leido, escrituras[p.indice].leido);
                assert!(p.habia != p.leido);
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
        Ctx::nuevo(Dir { shard: 0, id: 0 }, Remitente::Fuera, 1).con_ahora(Duration::from_millis(ms))
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
        assert_eq!(cuantos_pasan(&mut l, 200, 5), 1);
    }

    #[test]
    fn el_cubo_no_pasa_de_su_capacidad() {
        let mut l = Limitador::new(3, 10);
        assert_eq!(cuantos_pasan(&mut l, 0, 3), 3);
        assert_eq!(
            cuantos_pasan(&mut l, 60_000, 10),
            3,
            "tras un minuto parado, el cubo está lleno, pero solo caben 3 fichas"
        );
    }

    fn esperas(semilla: u64) -> Vec<Duration> {
        let mut ctx = ctx_en(0).con_azar(Azar::new(semilla));
        (0..12).map(|intento| espera_reintento(intento, &mut ctx)).collect()
    }

    #[test]
    fn la_misma_semilla_da_las_mismas_esperas() {
        for semilla in 0..20 {
            assert_eq!(esperas(semilla), esperas(semilla), "semilla {semilla}: usa ctx.azar(), no la hora");
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
                assert!(espera < techo, "intento {intento}: {espera:?} debe estar en 0..{techo:?}");
            }
        }
        let mayor = (0..50).map(|s| esperas(s)[11]).max().unwrap();
        assert!(
            mayor > TOPE / 2,
            "con el intento 11 el techo es el TOPE; en 50 semillas alguna espera pasa de {:?}",
            TOPE / 2
        );
    }
}
