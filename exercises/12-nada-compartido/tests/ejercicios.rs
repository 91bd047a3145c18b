//! Pruebas del capítulo 12. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/12-nada-compartido`) y contra la solución
//! (`solutions/12-nada-compartido`). Un módulo por ejercicio.
//!
//! Algunas usan el runtime con hilos (`Nucleo`) y otras el simulador
//! (`nucleo::sim`, capítulo 13): corre los mismos isolates en un solo hilo
//! y en un orden que fija una semilla, así que su resultado no depende de
//! cómo se repartan los hilos. No necesitas conocerlo para hacer estos
//! ejercicios.

use std::time::Duration;

use nucleo::{Effect, Salida};

/// Aplana un efecto en la lista de efectos simples que contiene.
fn aplana<M>(efecto: Effect<M>) -> Vec<Effect<M>> {
    match efecto {
        Effect::Batch(v) => v.into_iter().flat_map(aplana).collect(),
        otro => vec![otro],
    }
}

/// Espera una salida del runtime; diez segundos es «no va a llegar».
fn espera<M>(nucleo: &nucleo::Nucleo<M>, que_falta: &str) -> Salida<M>
where
    M: Send + 'static,
{
    nucleo.salida().recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| panic!("{que_falta}"))
}

mod almacen {
    use nucleo::{Config, Ctx, Dir, Effect, Isolate, Nucleo, Remitente, Salida};

    use nada_compartido::almacen::{Almacen, Kv};

    use super::{aplana, espera};

    fn pide(almacen: &mut Almacen, msg: Kv) -> Effect<Kv> {
        let mut ctx = Ctx::nuevo(Dir { shard: 0, id: 0 }, Remitente::Fuera, 1);
        almacen.handle(msg, &mut ctx)
    }

    fn respuesta(efecto: Effect<Kv>) -> Kv {
        match efecto {
            Effect::Reply(r) => r,
            otro => panic!("cada petición se responde con Effect::Reply(...), no con {otro:?}"),
        }
    }

    fn pon(clave: &str, valor: i64) -> Kv {
        Kv::Pon { clave: clave.into(), valor }
    }

    #[test]
    fn pon_responde_el_valor_anterior() {
        let mut a = Almacen::default();
        assert_eq!(respuesta(pide(&mut a, pon("x", 1))), Kv::Anterior(None), "la primera vez no había nada");
        assert_eq!(
            respuesta(pide(&mut a, pon("x", 2))),
            Kv::Anterior(Some(1)),
            "Pon responde el valor que había ANTES de guardar (HashMap::insert ya te lo da)"
        );
        assert_eq!(a.datos.get("x"), Some(&2));
    }

    #[test]
    fn lee_y_suma() {
        let mut a = Almacen::default();
        assert_eq!(respuesta(pide(&mut a, Kv::Lee { clave: "nada".into() })), Kv::Valor(None));
        pide(&mut a, pon("x", 10));
        assert_eq!(respuesta(pide(&mut a, Kv::Lee { clave: "x".into() })), Kv::Valor(Some(10)));
        let suma = |c: &str, n| Kv::Suma { clave: c.into(), cuanto: n };
        assert_eq!(respuesta(pide(&mut a, suma("x", 5))), Kv::Valor(Some(15)));
        assert_eq!(
            respuesta(pide(&mut a, suma("nueva", -3))),
            Kv::Valor(Some(-3)),
            "una clave que no existe vale 0 antes de sumar"
        );
    }

    #[test]
    fn cierra_responde_y_termina() {
        let mut a = Almacen::default();
        let efectos = aplana(pide(&mut a, Kv::Cierra));
        assert!(
            efectos.iter().any(|e| matches!(e, Effect::Reply(Kv::Cerrado))),
            "Cierra debe responder Cerrado a quien lo pidió: {efectos:?}"
        );
        assert!(
            efectos.iter().any(|e| matches!(e, Effect::Stop)),
            "Cierra debe terminar con Effect::Stop: {efectos:?}"
        );
    }

    #[test]
    fn funciona_en_el_runtime() {
        let config = Config { shards: 1, ..Config::default() };
        let nucleo: Nucleo<Kv> =
            Nucleo::arranca(config, |_| vec![Box::new(Almacen::default()) as Box<dyn Isolate<Msg = Kv>>]);
        let dir = Dir { shard: 0, id: 0 };
        let pasos = [
            (pon("a", 1), Kv::Anterior(None)),
            (pon("a", 4), Kv::Anterior(Some(1))),
            (Kv::Suma { clave: "a".into(), cuanto: 1 }, Kv::Valor(Some(5))),
            (Kv::Lee { clave: "a".into() }, Kv::Valor(Some(5))),
            (Kv::Cierra, Kv::Cerrado),
        ];
        for (peticion, esperada) in pasos {
            let texto = format!("{peticion:?}");
            nucleo.try_send(dir, peticion).expect("la cola está vacía");
            let llegada = espera(&nucleo, &format!("el almacén no respondió a {texto}"));
            assert_eq!(llegada, Salida::Respuesta(esperada), "respuesta a {texto}");
        }
        let informe = &nucleo.para()[0];
        assert_eq!(informe.vivos, 0, "tras Cierra, el almacén debe haber terminado");
        assert!(informe.panicos.is_empty(), "el almacén entró en pánico: {:?}", informe.panicos);
    }
}

mod contrapresion {
    use nucleo::sim::Simulador;

    use nada_compartido::contrapresion::{Consumidor, Flujo, Productor};

    const CAPACIDAD: usize = 8;
    const DATOS: u32 = 50;

    struct Final {
        confirmados: u32,
        reintentos: u32,
        pendientes: usize,
        recibidos: Vec<u32>,
        rechazados: u64,
    }

    /// Un productor y un consumidor en un shard con buzones de 8; el productor
    /// envía 50 datos. Corre hasta que no queda nada en vuelo.
    fn corre(semilla: u64) -> Final {
        let mut sim = Simulador::new(semilla, 1).con_capacidad_buzon(CAPACIDAD);
        let p = sim.spawn(0, Box::new(Productor::default()));
        let c = sim.spawn(0, Box::new(Consumidor::default()));
        sim.envia(p, Flujo::Empieza { para: c, n: DATOS }).unwrap();
        let pasos = sim.corre(20_000);
        assert!(pasos < 20_000, "semilla {semilla}: tras 20 000 entregas aún hay mensajes en vuelo");
        let rechazados = sim.cuentas().rechazados;
        sim.envia(p, Flujo::Estado).unwrap();
        sim.envia(c, Flujo::Estado).unwrap();
        sim.corre(100);
        let mut f = Final { confirmados: 0, reintentos: 0, pendientes: 0, recibidos: vec![], rechazados };
        for msg in sim.salida() {
            match msg {
                Flujo::Informe { confirmados, reintentos, pendientes } => {
                    (f.confirmados, f.reintentos, f.pendientes) = (confirmados, reintentos, pendientes)
                }
                Flujo::Recibidos(v) => f.recibidos = v,
                _ => {}
            }
        }
        f
    }

    #[test]
    fn llegan_todos_y_una_sola_vez() {
        for semilla in 0..20 {
            let f = corre(semilla);
            let mut ordenados = f.recibidos.clone();
            ordenados.sort();
            assert_eq!(
                ordenados,
                (0..DATOS).collect::<Vec<_>>(),
                "semilla {semilla}: el consumidor debe recibir cada dato 0..50 exactamente una vez; \
                 los rechazados se guardan en `pendientes` y se reenvían"
            );
            assert_eq!(f.confirmados, DATOS, "semilla {semilla}: deben llegar 50 Ack");
            assert_eq!(f.pendientes, 0, "semilla {semilla}: al final no debe quedar nada pendiente");
        }
    }

    #[test]
    fn reenvia_solo_cuando_hay_hueco() {
        let no_caben = u64::from(DATOS) - CAPACIDAD as u64;
        for semilla in 0..20 {
            let f = corre(semilla);
            assert_eq!(
                f.rechazados, no_caben,
                "semilla {semilla}: de 50 datos no caben 42 en un buzón de 8, y cada uno debería \
                 rechazarse una sola vez. Hubo {} rechazos: estás reenviando a un buzón que sigue \
                 lleno. Espera a un Ack, que es la señal de que hay sitio",
                f.rechazados
            );
            assert_eq!(u64::from(f.reintentos), no_caben, "semilla {semilla}: cuenta cada reenvío en `reintentos`");
        }
    }
}

mod enruta {
    use nucleo::sim::Simulador;
    use nucleo::{Config, Dir, Isolate, Nucleo, Salida, shard_de};

    use nada_compartido::enruta::{Cajon, Enrutador, Kv, dir_de};

    use super::espera;

    fn claves(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("cliente-{i}")).collect()
    }

    #[test]
    fn dir_de_usa_el_reparto_de_todos() {
        for shards in [1, 2, 3, 8] {
            for clave in claves(200) {
                assert_eq!(
                    dir_de(&clave, shards),
                    Dir { shard: shard_de(clave.as_bytes(), shards), id: 0 },
                    "«{clave}» con {shards} shards: usa nucleo::shard_de, la cuenta que usan todos los clientes, \
                     y el id 0, donde vive el cajón"
                );
            }
        }
    }

    #[test]
    fn la_respuesta_llega_a_quien_pregunto() {
        let mut sim = Simulador::new(1, 3);
        for shard in 0..3 {
            sim.spawn(shard, Box::new(Cajon::default()));
        }
        let enrutador = sim.spawn(0, Box::new(Enrutador));
        for (i, clave) in claves(10).into_iter().enumerate() {
            sim.envia(enrutador, Kv::Pon { clave, valor: i as i64 }).unwrap();
        }
        sim.corre(10_000);
        let respuestas = sim.salida();
        assert_eq!(
            respuestas.len(),
            10,
            "cada Pon debe recibir su respuesta fuera, y llegaron {}: con Effect::Send el cajón responde \
             al enrutador; con Effect::Forward, a quien preguntó. Recibido: {respuestas:?}",
            respuestas.len()
        );
        assert!(respuestas.iter().all(|r| matches!(r, Kv::Guardado { .. })), "{respuestas:?}");
    }

    #[test]
    fn un_cajon_lleno_responde_ocupado() {
        // Un shard, buzones de 4 y un lote de 10: caben 4, los otros 6
        // vuelven al enrutador, que debe avisar a quien pidió.
        for semilla in 0..5 {
            let mut sim = Simulador::new(semilla, 1).con_capacidad_buzon(4);
            sim.spawn(0, Box::new(Cajon::default()));
            let enrutador = sim.spawn(0, Box::new(Enrutador));
            let lote = claves(10).into_iter().map(|clave| Kv::Pon { clave, valor: 1 }).collect();
            sim.envia(enrutador, Kv::Lote(lote)).unwrap();
            sim.corre(10_000);
            let respuestas = sim.salida();
            let guardados = respuestas.iter().filter(|r| matches!(r, Kv::Guardado { .. })).count();
            let ocupados: Vec<&str> = respuestas
                .iter()
                .filter_map(|r| match r {
                    Kv::Ocupado { clave } => Some(clave.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(guardados, 4, "semilla {semilla}: caben 4 en el buzón del cajón: {respuestas:?}");
            assert_eq!(
                ocupados.len(),
                6,
                "semilla {semilla}: las 6 peticiones que no cupieron deben recibir Kv::Ocupado \
                 (implementa `rechazado`): {respuestas:?}"
            );
            assert!(ocupados.contains(&"cliente-9"), "Ocupado debe llevar la clave de la petición rechazada");
        }
    }

    #[test]
    fn en_el_runtime_cada_clave_queda_en_su_shard() {
        let config = Config { shards: 3, ..Config::default() };
        let nucleo: Nucleo<Kv> = Nucleo::arranca(config, |shard| {
            let mut isolates: Vec<Box<dyn Isolate<Msg = Kv>>> = vec![Box::new(Cajon::default())];
            if shard == 0 {
                isolates.push(Box::new(Enrutador));
            }
            isolates
        });
        let enrutador = Dir { shard: 0, id: 1 };
        for (i, clave) in claves(30).into_iter().enumerate() {
            let shard = shard_de(clave.as_bytes(), 3);
            nucleo.try_send(enrutador, Kv::Pon { clave: clave.clone(), valor: i as i64 }).unwrap();
            let llegada = espera(&nucleo, "el Pon no tuvo respuesta: ¿reenvías con Effect::Forward?");
            assert_eq!(
                llegada,
                Salida::Respuesta(Kv::Guardado { shard }),
                "«{clave}» debe guardarse en el shard {shard}"
            );
            // Un cliente que lee directamente del cajón de la clave la encuentra.
            nucleo.try_send(Dir { shard, id: 0 }, Kv::Lee { clave: clave.clone() }).unwrap();
            let llegada = espera(&nucleo, "el cajón no respondió");
            assert_eq!(llegada, Salida::Respuesta(Kv::Valor { shard, valor: Some(i as i64) }), "leyendo «{clave}»");
        }
        nucleo.para();
    }
}
