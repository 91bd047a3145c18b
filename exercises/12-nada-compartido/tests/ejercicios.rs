//! Pruebas del capítulo 12. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/12-nada-compartido`) y contra la solución
//! (`solutions/12-nada-compartido`). Un módulo por ejercicio.
//!
//! Hay dos clases de pruebas. Unas llaman a `handle` (o a `rechazado`) a
//! mano, con un `Ctx::nuevo`, y miran el efecto que devuelve: no hay hilos
//! ni esperas. Otras arrancan el runtime del capítulo (`Nucleo`). Con un
//! solo shard, todo pasa en un hilo y en un orden fijo: `para_y_vacia`
//! espera a que no quede nada pendiente y devuelve las salidas, así que el
//! resultado no depende de la suerte. Con varios shards se espera cada
//! respuesta con un límite de tiempo que solo es una red de seguridad.
//!
//! Los isolates que arrancan estas pruebas van envueltos en un `Vigilado`:
//! si tu código entra en pánico (un `todo!()` sin hacer, por ejemplo), la
//! prueba falla en el acto con ese mensaje, sin esperar a que venza ningún
//! plazo.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use nucleo::{Ctx, Dir, Effect, Isolate, Nucleo, Salida};

/// Aplana un efecto en la lista de efectos simples que contiene.
fn aplana<M>(efecto: Effect<M>) -> Vec<Effect<M>> {
    match efecto {
        Effect::Batch(v) => v.into_iter().flat_map(aplana).collect(),
        otro => vec![otro],
    }
}

/// Envuelve un isolate: si entra en pánico, avisa a la prueba por `avisos` y
/// deja que el pánico siga (el runtime lo contiene como siempre).
struct Vigilado<I> {
    interior: I,
    avisos: Sender<String>,
}

fn vigila<I>(interior: I, avisos: &Sender<String>) -> Vigilado<I> {
    Vigilado { interior, avisos: avisos.clone() }
}

impl<I: Isolate> Vigilado<I> {
    fn vigilando<R>(&mut self, f: impl FnOnce(&mut I) -> R) -> R {
        match panic::catch_unwind(AssertUnwindSafe(|| f(&mut self.interior))) {
            Ok(r) => r,
            Err(carga) => {
                let texto = carga
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| carga.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "pánico sin texto".into());
                let _ = self.avisos.send(texto);
                panic::resume_unwind(carga)
            }
        }
    }
}

impl<I: Isolate> Isolate for Vigilado<I> {
    type Msg = I::Msg;

    fn handle(&mut self, msg: I::Msg, ctx: &mut Ctx) -> Effect<I::Msg> {
        self.vigilando(|i| i.handle(msg, ctx))
    }

    fn rechazado(&mut self, para: Dir, msg: I::Msg, ctx: &mut Ctx) -> Effect<I::Msg> {
        self.vigilando(|i| i.rechazado(para, msg, ctx))
    }
}

/// Falla en el acto si algún isolate vigilado entró en pánico.
fn sin_panicos(avisos: &Receiver<String>) {
    if let Ok(texto) = avisos.try_recv() {
        panic!(
            "un isolate entró en pánico dentro del runtime: «{texto}» (el archivo y la línea están más arriba). \
             Si dice «not yet implemented», es un todo!() que te falta por resolver"
        );
    }
}

/// Espera una salida del runtime, mirando cada poco si algún isolate entró
/// en pánico. Dos segundos es «no va a llegar»: una respuesta tarda
/// microsegundos.
fn espera<M: Send + 'static>(nucleo: &Nucleo<M>, avisos: &Receiver<String>, que_falta: &str) -> Salida<M> {
    let limite = Instant::now() + Duration::from_secs(2);
    loop {
        sin_panicos(avisos);
        match nucleo.salida().recv_timeout(Duration::from_millis(5)) {
            Ok(salida) => return salida,
            Err(RecvTimeoutError::Timeout) if Instant::now() < limite => {}
            Err(_) => panic!("{que_falta} (esperé 2 s)"),
        }
    }
}

/// Para el runtime y devuelve lo que quedaba por salir, comprobando antes que
/// ningún isolate entró en pánico.
fn para<M: Send + 'static>(nucleo: Nucleo<M>, avisos: &Receiver<String>) -> (Vec<nucleo::InformeShard>, Vec<M>) {
    let (informes, salidas) = nucleo.para_y_vacia();
    sin_panicos(avisos);
    let salidas = salidas
        .into_iter()
        .map(|s| match s {
            Salida::Respuesta(m) => m,
            Salida::Rechazado { para, .. } => panic!("un mensaje de la prueba no cupo en el buzón de {para}"),
        })
        .collect();
    (informes, salidas)
}

/// Lo que enseña `almacen`, una prueba por propiedad:
///
/// - `Pon` responde el valor anterior (`pon_responde_el_valor_anterior`);
/// - `Lee` responde el valor actual y `Suma` suma, con una clave nueva a 0
///   (`lee_y_suma`);
/// - `Suma` también resta: ingresos y retiradas, aunque el saldo quede en
///   negativo, y cada clave por separado (`ingresos_y_retiradas`);
/// - a una respuesta que le llega por error no contesta nada
///   (`las_respuestas_no_se_contestan`);
/// - `Cierra` responde `Cerrado` y para (`cierra_responde_y_termina`);
/// - en el runtime, cada respuesta va a quien preguntó, con varios clientes
///   en varios shards a la vez (`funciona_en_el_runtime`,
///   `varios_clientes_a_la_vez`).
mod almacen {
    use std::collections::HashMap;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use nucleo::{Config, Ctx, Dir, Effect, Isolate, Nucleo, Remitente, Salida};

    use nada_compartido::almacen::{Almacen, Kv};

    use super::{aplana, espera, para, sin_panicos, vigila};

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

    fn suma(clave: &str, cuanto: i64) -> Kv {
        Kv::Suma { clave: clave.into(), cuanto }
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
        assert_eq!(
            a.datos.get("x"),
            Some(&2),
            "tras el segundo Pon, en los datos del almacén debe quedar el valor nuevo, 2"
        );
    }

    #[test]
    fn lee_y_suma() {
        let mut a = Almacen::default();
        assert_eq!(
            respuesta(pide(&mut a, Kv::Lee { clave: "nada".into() })),
            Kv::Valor(None),
            "Lee de una clave que nunca se guardó responde Valor(None)"
        );
        pide(&mut a, pon("x", 10));
        assert_eq!(
            respuesta(pide(&mut a, Kv::Lee { clave: "x".into() })),
            Kv::Valor(Some(10)),
            "Lee responde el valor actual: tras Pon x = 10, Valor(Some(10))"
        );
        assert_eq!(
            respuesta(pide(&mut a, suma("x", 5))),
            Kv::Valor(Some(15)),
            "Suma responde el saldo nuevo: 10 + 5 = 15"
        );
        assert_eq!(
            respuesta(pide(&mut a, suma("nueva", -3))),
            Kv::Valor(Some(-3)),
            "una clave que no existe vale 0 antes de sumar"
        );
        assert_eq!(respuesta(pide(&mut a, Kv::Lee { clave: "nada".into() })), Kv::Valor(None), "Lee no crea la clave");
    }

    #[test]
    fn ingresos_y_retiradas() {
        let mut a = Almacen::default();
        let pasos = [
            (suma("cuenta", 10), 10),
            (suma("cuenta", -4), 6),
            (suma("otra", 100), 100),
            (suma("cuenta", -15), -9),
            (suma("cuenta", 3), -6),
            (suma("otra", -100), 0),
            (suma("cuenta", 0), -6),
        ];
        for (peticion, saldo) in pasos {
            let texto = format!("{peticion:?}");
            assert_eq!(
                respuesta(pide(&mut a, peticion)),
                Kv::Valor(Some(saldo)),
                "tras {texto}, el saldo es {saldo}: Suma suma lo que le digan, también en negativo y aunque el \
                 saldo quede por debajo de 0, y cada clave lleva su cuenta"
            );
        }
        assert_eq!(
            a.datos.get("cuenta"),
            Some(&-6),
            "en los datos del almacén, la cuenta queda en -6 (10 - 4 - 15 + 3 + 0)"
        );
        assert_eq!(a.datos.get("otra"), Some(&0), "una clave a 0 sigue existiendo");
    }

    #[test]
    fn las_respuestas_no_se_contestan() {
        let mut a = Almacen::default();
        pide(&mut a, pon("x", 1));
        for extraviada in [Kv::Anterior(Some(1)), Kv::Valor(None), Kv::Valor(Some(7)), Kv::Cerrado] {
            let texto = format!("{extraviada:?}");
            let efecto = pide(&mut a, extraviada);
            assert!(
                matches!(efecto, Effect::Noop),
                "a una respuesta ({texto}) el almacén no contesta: Effect::Noop. Contestar a una respuesta \
                 puede acabar en dos isolates respondiéndose para siempre. Devolviste {efecto:?}"
            );
        }
        assert_eq!(a.datos.len(), 1, "una respuesta no cambia los datos");
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
        let (avisos_tx, avisos) = mpsc::channel();
        let config = Config { shards: 1, ..Config::default() };
        let nucleo: Nucleo<Kv> = Nucleo::arranca(config, move |_| {
            vec![Box::new(vigila(Almacen::default(), &avisos_tx)) as Box<dyn Isolate<Msg = Kv>>]
        });
        let dir = Dir { shard: 0, id: 0 };
        let pasos = [
            (pon("a", 1), Kv::Anterior(None)),
            (pon("a", 4), Kv::Anterior(Some(1))),
            (suma("a", 1), Kv::Valor(Some(5))),
            (suma("a", -7), Kv::Valor(Some(-2))),
            (Kv::Lee { clave: "a".into() }, Kv::Valor(Some(-2))),
            (Kv::Cierra, Kv::Cerrado),
        ];
        for (peticion, esperada) in pasos {
            let texto = format!("{peticion:?}");
            nucleo.try_send(dir, peticion).expect("la cola está vacía");
            let llegada = espera(&nucleo, &avisos, &format!("el almacén no respondió a {texto}"));
            assert_eq!(llegada, Salida::Respuesta(esperada), "respuesta a {texto}");
        }
        let (informes, sobran) = para(nucleo, &avisos);
        assert!(sobran.is_empty(), "cada petición tiene UNA respuesta; sobraron {sobran:?}");
        assert_eq!(informes[0].vivos, 0, "tras Cierra, el almacén debe haber terminado");
        assert!(informes[0].panicos.is_empty(), "el almacén entró en pánico: {:?}", informes[0].panicos);
    }

    /// Un cliente: al recibir `Lee { clave: "empieza" }` de fuera, manda sus
    /// operaciones al almacén y anota cada respuesta que le llega.
    struct Cliente {
        almacen: Dir,
        clave: String,
        operaciones: Vec<i64>,
        respuestas: Arc<Mutex<HashMap<Dir, Vec<i64>>>>,
    }

    impl Isolate for Cliente {
        type Msg = Kv;

        fn handle(&mut self, msg: Kv, ctx: &mut Ctx) -> Effect<Kv> {
            match msg {
                Kv::Lee { clave } if clave == "empieza" => Effect::Batch(
                    self.operaciones.iter().map(|&c| Effect::Send(self.almacen, suma(&self.clave, c))).collect(),
                ),
                Kv::Valor(Some(v)) => {
                    self.respuestas.lock().unwrap().entry(ctx.yo()).or_default().push(v);
                    Effect::Noop
                }
                otro => panic!("el cliente {} recibió {otro:?}, que no es respuesta a una Suma", ctx.yo()),
            }
        }
    }

    #[test]
    fn varios_clientes_a_la_vez() {
        // El almacén en el shard 0; cuatro clientes repartidos en los shards 0,
        // 1 y 2, que ingresan y retiran de la misma cuenta a la vez.
        const OPERACIONES: [i64; 8] = [50, -20, 7, -40, 3, -1, 10, -9];
        let (avisos_tx, avisos) = mpsc::channel();
        let respuestas: Arc<Mutex<HashMap<Dir, Vec<i64>>>> = Arc::default();
        let almacen = Dir { shard: 0, id: 0 };
        let r = respuestas.clone();
        let nucleo: Nucleo<Kv> = Nucleo::arranca(Config { shards: 3, ..Config::default() }, move |shard| {
            let mut isolates: Vec<Box<dyn Isolate<Msg = Kv>>> = Vec::new();
            if shard == 0 {
                isolates.push(Box::new(vigila(Almacen::default(), &avisos_tx)));
            }
            let clientes = if shard == 1 { 2 } else { 1 };
            for _ in 0..clientes {
                let c =
                    Cliente { almacen, clave: "caja".into(), operaciones: OPERACIONES.to_vec(), respuestas: r.clone() };
                isolates.push(Box::new(vigila(c, &avisos_tx)));
            }
            isolates
        });
        let clientes =
            [Dir { shard: 0, id: 1 }, Dir { shard: 1, id: 0 }, Dir { shard: 1, id: 1 }, Dir { shard: 2, id: 0 }];
        for c in clientes {
            nucleo.try_send(c, Kv::Lee { clave: "empieza".into() }).expect("cabe");
        }
        let limite = Instant::now() + Duration::from_secs(5);
        loop {
            sin_panicos(&avisos);
            let recibidas: usize = respuestas.lock().unwrap().values().map(Vec::len).sum();
            if recibidas >= clientes.len() * OPERACIONES.len() {
                break;
            }
            assert!(
                Instant::now() < limite,
                "en 5 s los clientes recibieron {recibidas} respuestas de {}: cada Suma se responde con \
                 Effect::Reply, que va a quien la envió",
                clientes.len() * OPERACIONES.len()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        nucleo.try_send(almacen, Kv::Lee { clave: "caja".into() }).expect("cabe");
        let total: i64 = OPERACIONES.iter().sum::<i64>() * clientes.len() as i64;
        assert_eq!(
            espera(&nucleo, &avisos, "el almacén no respondió a Lee"),
            Salida::Respuesta(Kv::Valor(Some(total))),
            "cuatro clientes con ingresos y retiradas: el saldo final es la suma de todo"
        );
        let (_, sobran) = para(nucleo, &avisos);
        assert!(sobran.is_empty(), "sobraron salidas: {sobran:?}");
        let respuestas = respuestas.lock().unwrap();
        for c in clientes {
            assert_eq!(
                respuestas.get(&c).map_or(0, Vec::len),
                OPERACIONES.len(),
                "el cliente {c} debía recibir una respuesta por operación: {respuestas:?}"
            );
        }
    }
}

/// Lo que enseña `contrapresion`, una prueba por propiedad:
///
/// - un dato rechazado se guarda y NO se reenvía enseguida: `rechazado`
///   devuelve `Noop` (`un_rechazo_se_guarda_sin_reenviar`);
/// - cada `Ack` reenvía UN dato pendiente, el más antiguo, y lo cuenta; sin
///   pendientes, no envía nada (`cada_ack_reenvia_uno_el_mas_antiguo`);
/// - en el runtime, con buzones pequeños, llegan todos los datos, una vez y
///   en orden, y cada dato se rechaza como mucho una vez
///   (`en_el_runtime_llegan_todos_en_orden`).
mod contrapresion {
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    use nucleo::{Config, Ctx, Dir, Effect, Isolate, Nucleo, Remitente};

    use nada_compartido::contrapresion::{Consumidor, Flujo, Productor};

    use super::{aplana, para, vigila};

    const PRODUCTOR: Dir = Dir { shard: 0, id: 0 };
    const CONSUMIDOR: Dir = Dir { shard: 0, id: 1 };

    fn ctx(remitente: Remitente) -> Ctx {
        Ctx::nuevo(PRODUCTOR, remitente, 1)
    }

    /// Un productor que ya recibió `Empieza` hacia el consumidor.
    fn productor_empezado(n: u32) -> Productor {
        let mut p = Productor::default();
        let efectos = aplana(p.handle(Flujo::Empieza { para: CONSUMIDOR, n }, &mut ctx(Remitente::Fuera)));
        assert_eq!(efectos.len(), n as usize, "Empieza envía los {n} datos (esa parte ya estaba escrita)");
        p
    }

    #[test]
    fn un_rechazo_se_guarda_sin_reenviar() {
        let mut p = productor_empezado(10);
        for dato in [4, 5, 6] {
            let efecto = p.rechazado(CONSUMIDOR, Flujo::Dato(dato), &mut ctx(Remitente::Isolate(PRODUCTOR)));
            assert!(
                matches!(efecto, Effect::Noop),
                "un rechazo dice que el buzón del consumidor está lleno: reenviar ahora volvería a chocar. \
                 Guarda el dato y devuelve Effect::Noop, no {efecto:?}"
            );
        }
        assert_eq!(
            p.pendientes,
            [4, 5, 6],
            "los tres rechazados esperan en `pendientes`, en el orden en que volvieron"
        );
        assert_eq!(p.reintentos, 0, "aún no se ha reenviado nada");
    }

    fn envios(efecto: Effect<Flujo>) -> Vec<(Dir, u32)> {
        aplana(efecto)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Send(d, Flujo::Dato(n)) | Effect::Forward(d, Flujo::Dato(n)) => Some((d, n)),
                Effect::Noop => None,
                otro => panic!("al recibir un Ack, el productor solo reenvía datos: {otro:?}"),
            })
            .collect()
    }

    #[test]
    fn cada_ack_reenvia_uno_el_mas_antiguo() {
        let mut p = productor_empezado(10);
        for dato in [3, 7, 8, 9] {
            p.rechazado(CONSUMIDOR, Flujo::Dato(dato), &mut ctx(Remitente::Isolate(PRODUCTOR)));
        }
        let del_consumidor = || ctx(Remitente::Isolate(CONSUMIDOR));
        for (i, esperado) in [3, 7, 8, 9].into_iter().enumerate() {
            let enviados = envios(p.handle(Flujo::Ack(i as u32), &mut del_consumidor()));
            assert_eq!(
                enviados,
                [(CONSUMIDOR, esperado)],
                "el Ack {} deja un hueco: reenvía UN dato, el más antiguo de `pendientes` (pop_front), al destino",
                i + 1
            );
            assert_eq!(p.reintentos, i as u32 + 1, "cuenta cada reenvío en `reintentos`");
            assert_eq!(p.confirmados, i as u32 + 1, "cuenta cada Ack en `confirmados`");
        }
        let enviados = envios(p.handle(Flujo::Ack(4), &mut del_consumidor()));
        assert!(enviados.is_empty(), "sin pendientes, un Ack no envía nada: {enviados:?}");
        assert_eq!((p.confirmados, p.reintentos), (5, 4), "un Ack sin pendientes se confirma, pero no es reenvío");
        // Un dato reenviado que vuelve a chocar se guarda otra vez, detrás.
        p.rechazado(CONSUMIDOR, Flujo::Dato(1), &mut ctx(Remitente::Isolate(PRODUCTOR)));
        p.rechazado(CONSUMIDOR, Flujo::Dato(3), &mut ctx(Remitente::Isolate(PRODUCTOR)));
        assert_eq!(
            envios(p.handle(Flujo::Ack(5), &mut del_consumidor())),
            [(CONSUMIDOR, 1)],
            "el dato 1, reenviado y rechazado otra vez, vuelve a `pendientes`, detrás: el Ack siguiente lo reenvía, \
             como el más antiguo"
        );
        assert_eq!(
            envios(p.handle(Flujo::Ack(6), &mut del_consumidor())),
            [(CONSUMIDOR, 3)],
            "y el Ack siguiente reenvía el 3, el que se guardó después"
        );
    }

    /// Comparte un isolate con la prueba, para mirar su estado al final.
    struct Compartido<I>(Arc<Mutex<I>>);

    impl<I: Isolate> Isolate for Compartido<I> {
        type Msg = I::Msg;
        fn handle(&mut self, msg: I::Msg, ctx: &mut Ctx) -> Effect<I::Msg> {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).handle(msg, ctx)
        }
        fn rechazado(&mut self, para: Dir, msg: I::Msg, ctx: &mut Ctx) -> Effect<I::Msg> {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).rechazado(para, msg, ctx)
        }
    }

    #[test]
    fn en_el_runtime_llegan_todos_en_orden() {
        // Productor y consumidor en un solo shard: un hilo, un orden fijo.
        for (capacidad, datos) in [(8, 50u32), (1, 20), (3, 40), (16, 10)] {
            let productor = Arc::new(Mutex::new(Productor::default()));
            let consumidor = Arc::new(Mutex::new(Consumidor::default()));
            let (avisos_tx, avisos) = mpsc::channel();
            let (p, c) = (productor.clone(), consumidor.clone());
            let config = Config { shards: 1, capacidad_buzon: capacidad, ..Config::default() };
            let nucleo: Nucleo<Flujo> = Nucleo::arranca(config, move |_| {
                vec![
                    Box::new(vigila(Compartido(p.clone()), &avisos_tx)) as Box<dyn Isolate<Msg = Flujo>>,
                    Box::new(vigila(Compartido(c.clone()), &avisos_tx)),
                ]
            });
            nucleo.try_send(PRODUCTOR, Flujo::Empieza { para: CONSUMIDOR, n: datos }).expect("la cola está vacía");
            let (informes, _) = para(nucleo, &avisos);
            let p = productor.lock().unwrap();
            let recibidos = &consumidor.lock().unwrap().recibidos;
            let no_caben = u64::from(datos.saturating_sub(capacidad as u32));
            assert_eq!(
                *recibidos,
                (0..datos).collect::<Vec<_>>(),
                "buzón de {capacidad}, {datos} datos: el consumidor debe recibir cada dato una vez y en orden. \
                 Los rechazados se guardan en `pendientes` y se reenvían de uno en uno, el más antiguo primero"
            );
            assert_eq!(p.confirmados, datos, "buzón de {capacidad}: deben llegar {datos} Ack");
            assert!(p.pendientes.is_empty(), "buzón de {capacidad}: al final no queda nada pendiente");
            assert_eq!(
                informes[0].rechazados, no_caben,
                "buzón de {capacidad}, {datos} datos: no caben {no_caben}, y cada uno debería rechazarse una \
                 sola vez. Hubo {} rechazos: estás reenviando a un buzón que sigue lleno. Espera a un Ack, que \
                 es la señal de que hay sitio, y reenvía uno por Ack",
                informes[0].rechazados
            );
            assert_eq!(u64::from(p.reintentos), no_caben, "buzón de {capacidad}: cuenta cada reenvío en `reintentos`");
        }
    }
}

/// Lo que enseña `enruta`, una prueba por propiedad:
///
/// - `dir_de` usa el reparto de todos, `shard_de`, y el id 0
///   (`dir_de_usa_el_reparto_de_todos`);
/// - `Pon` y `Lee` se reenvían con `Forward` al cajón de su clave; un `Lote`,
///   petición a petición; las respuestas que le lleguen no se reenvían
///   (`cada_clase_de_mensaje_a_su_sitio`);
/// - en el runtime, la respuesta llega a quien preguntó, para `Pon` y para
///   `Lee` (`la_respuesta_llega_a_quien_pregunto`,
///   `en_el_runtime_cada_clave_queda_en_su_shard`);
/// - una petición que no cabe, sea `Pon` o `Lee`, recibe `Ocupado` con su
///   clave (`rechazado_responde_ocupado`, `un_cajon_lleno_responde_ocupado`);
/// - al parar, cada petición ya enviada tiene su respuesta: ninguna se
///   pierde en silencio (`al_parar_nadie_se_queda_sin_respuesta`).
mod enruta {
    use std::sync::mpsc;

    use nucleo::{Config, Ctx, Dir, Effect, Isolate, Nucleo, Remitente, Salida, shard_de};

    use nada_compartido::enruta::{Cajon, Enrutador, Kv, dir_de};

    use super::{aplana, espera, para, vigila};

    fn claves(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("cliente-{i}")).collect()
    }

    fn pon(clave: &str, valor: i64) -> Kv {
        Kv::Pon { clave: clave.into(), valor }
    }

    fn lee(clave: &str) -> Kv {
        Kv::Lee { clave: clave.into() }
    }

    /// Un runtime con un cajón en cada shard y el enrutador en `{0, 1}`.
    fn arranca(config: Config, avisos: &mpsc::Sender<String>) -> Nucleo<Kv> {
        let avisos = avisos.clone();
        Nucleo::arranca(config, move |shard| {
            let mut isolates: Vec<Box<dyn Isolate<Msg = Kv>>> = vec![Box::new(Cajon::default())];
            if shard == 0 {
                isolates.push(Box::new(vigila(Enrutador, &avisos)));
            }
            isolates
        })
    }

    const ENRUTADOR: Dir = Dir { shard: 0, id: 1 };

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
    fn cada_clase_de_mensaje_a_su_sitio() {
        let mut e = Enrutador;
        let ctx = || Ctx::nuevo(ENRUTADOR, Remitente::Fuera, 3);
        for peticion in [pon("ana", 1), lee("ana"), pon("luis", 2), lee("marta")] {
            let clave = peticion.clave().unwrap().to_string();
            let texto = format!("{peticion:?}");
            match e.handle(peticion.clone(), &mut ctx()) {
                Effect::Forward(d, m) => {
                    assert_eq!(d, dir_de(&clave, 3), "{texto} va al cajón de «{clave}»");
                    assert_eq!(m, peticion, "se reenvía la misma petición");
                }
                otro => {
                    panic!("{texto}: reenvíalo con Effect::Forward(dir_de(...), msg) (Pon y Lee, las dos), no {otro:?}")
                }
            }
        }
        let lote = vec![pon("a", 1), lee("b"), pon("c", 3), lee("a"), Kv::Lote(vec![pon("d", 4)])];
        let efectos = aplana(e.handle(Kv::Lote(lote), &mut ctx()));
        let reenviados: Vec<(Dir, Kv)> = efectos
            .into_iter()
            .map(|ef| match ef {
                Effect::Forward(d, m) => (d, m),
                otro => panic!("un Lote se reenvía con un Forward por petición; encontré {otro:?}"),
            })
            .collect();
        let esperados: Vec<(Dir, Kv)> = [pon("a", 1), lee("b"), pon("c", 3), lee("a"), pon("d", 4)]
            .into_iter()
            .map(|m| (dir_de(m.clave().unwrap(), 3), m))
            .collect();
        assert_eq!(
            reenviados, esperados,
            "cada petición del lote (también las de un lote dentro del lote) va a su cajón, en orden"
        );
        for respuesta in
            [Kv::Guardado { shard: 1 }, Kv::Valor { shard: 0, valor: Some(1) }, Kv::Ocupado { clave: "x".into() }]
        {
            let texto = format!("{respuesta:?}");
            let efecto = e.handle(respuesta, &mut ctx());
            assert!(
                matches!(efecto, Effect::Noop),
                "{texto} es una respuesta: el enrutador no la reenvía ({efecto:?})"
            );
        }
    }

    #[test]
    fn rechazado_responde_ocupado() {
        let mut e = Enrutador;
        for peticion in [pon("ana", 1), lee("luis")] {
            let clave = peticion.clave().unwrap().to_string();
            let texto = format!("{peticion:?}");
            let mut ctx = Ctx::nuevo(ENRUTADOR, Remitente::Fuera, 3);
            let efecto = e.rechazado(dir_de(&clave, 3), peticion, &mut ctx);
            assert!(
                matches!(&efecto, Effect::Reply(Kv::Ocupado { clave: c }) if *c == clave),
                "{texto} no cupo: responde Effect::Reply(Kv::Ocupado {{ clave: \"{clave}\" }}) a quien preguntó \
                 (sea Pon o Lee), no {efecto:?}"
            );
        }
    }

    #[test]
    fn la_respuesta_llega_a_quien_pregunto() {
        let (avisos_tx, avisos) = mpsc::channel();
        let nucleo = arranca(Config { shards: 3, ..Config::default() }, &avisos_tx);
        for (i, clave) in claves(10).into_iter().enumerate() {
            nucleo.try_send(ENRUTADOR, pon(&clave, i as i64)).unwrap();
        }
        let mut respuestas = Vec::new();
        for _ in 0..10 {
            respuestas.push(espera(
                &nucleo,
                &avisos,
                "faltan respuestas a Pon: con Effect::Send el cajón responde al enrutador; con Effect::Forward, \
                 a quien preguntó",
            ));
        }
        for (i, clave) in claves(10).into_iter().enumerate() {
            nucleo.try_send(ENRUTADOR, lee(&clave)).unwrap();
            let llegada = espera(&nucleo, &avisos, "un Lee enviado al enrutador no tuvo respuesta: ¿reenvías Lee?");
            let shard = shard_de(clave.as_bytes(), 3);
            assert_eq!(
                llegada,
                Salida::Respuesta(Kv::Valor { shard, valor: Some(i as i64) }),
                "Lee «{clave}» por el enrutador"
            );
        }
        let (_, sobran) = para(nucleo, &avisos);
        assert!(sobran.is_empty(), "cada petición tiene UNA respuesta; sobraron {sobran:?}");
        assert!(respuestas.iter().all(|r| matches!(r, Salida::Respuesta(Kv::Guardado { .. }))), "{respuestas:?}");
    }

    #[test]
    fn un_cajon_lleno_responde_ocupado() {
        // Un shard, buzones de 4 y un lote de 10 (Pon y Lee mezclados): caben
        // 4, los otros 6 vuelven al enrutador, que debe avisar a quien pidió.
        let (avisos_tx, avisos) = mpsc::channel();
        let nucleo = arranca(Config { shards: 1, capacidad_buzon: 4, ..Config::default() }, &avisos_tx);
        let lote: Vec<Kv> =
            claves(10).iter().enumerate().map(|(i, c)| if i % 2 == 0 { pon(c, 1) } else { lee(c) }).collect();
        nucleo.try_send(ENRUTADOR, Kv::Lote(lote)).unwrap();
        let (_, respuestas) = para(nucleo, &avisos);
        let atendidas = respuestas.iter().filter(|r| matches!(r, Kv::Guardado { .. } | Kv::Valor { .. })).count();
        let mut ocupados: Vec<&str> = respuestas
            .iter()
            .filter_map(|r| match r {
                Kv::Ocupado { clave } => Some(clave.as_str()),
                _ => None,
            })
            .collect();
        ocupados.sort();
        assert_eq!(atendidas, 4, "caben 4 en el buzón del cajón: {respuestas:?}");
        assert_eq!(
            ocupados,
            ["cliente-4", "cliente-5", "cliente-6", "cliente-7", "cliente-8", "cliente-9"],
            "las 6 peticiones que no cupieron (Pon y Lee) deben recibir Kv::Ocupado con su clave \
             (implementa `rechazado`): {respuestas:?}"
        );
    }

    #[test]
    fn en_el_runtime_cada_clave_queda_en_su_shard() {
        let (avisos_tx, avisos) = mpsc::channel();
        let nucleo = arranca(Config { shards: 3, ..Config::default() }, &avisos_tx);
        for (i, clave) in claves(30).into_iter().enumerate() {
            let shard = shard_de(clave.as_bytes(), 3);
            nucleo.try_send(ENRUTADOR, pon(&clave, i as i64)).unwrap();
            let llegada = espera(&nucleo, &avisos, "el Pon no tuvo respuesta: ¿reenvías con Effect::Forward?");
            assert_eq!(
                llegada,
                Salida::Respuesta(Kv::Guardado { shard }),
                "«{clave}» debe guardarse en el shard {shard}"
            );
            // Un cliente que lee directamente del cajón de la clave la encuentra.
            nucleo.try_send(Dir { shard, id: 0 }, lee(&clave)).unwrap();
            let llegada = espera(&nucleo, &avisos, "el cajón no respondió");
            assert_eq!(llegada, Salida::Respuesta(Kv::Valor { shard, valor: Some(i as i64) }), "leyendo «{clave}»");
        }
        para(nucleo, &avisos);
    }

    #[test]
    fn al_parar_nadie_se_queda_sin_respuesta() {
        // Un shard: se envían peticiones y se para enseguida. `para_y_vacia`
        // deja terminar lo pendiente: cada petición debe tener su respuesta.
        let (avisos_tx, avisos) = mpsc::channel();
        let nucleo = arranca(Config { shards: 1, capacidad_buzon: 8, ..Config::default() }, &avisos_tx);
        let mut enviadas = 0;
        for tanda in 0..3 {
            let lote: Vec<Kv> = claves(6).iter().map(|c| if tanda % 2 == 0 { pon(c, tanda) } else { lee(c) }).collect();
            enviadas += lote.len();
            nucleo.try_send(ENRUTADOR, Kv::Lote(lote)).unwrap();
            nucleo.try_send(ENRUTADOR, lee("suelta")).unwrap();
            enviadas += 1;
        }
        let (informes, respuestas) = para(nucleo, &avisos);
        assert_eq!(
            respuestas.len(),
            enviadas,
            "se enviaron {enviadas} peticiones (en lotes y sueltas, Pon y Lee) y hubo {} respuestas: cada \
             una recibe un dato o un Ocupado, nunca silencio: {respuestas:?}",
            respuestas.len()
        );
        assert_eq!(informes[0].perdidos, 0, "no se perdió ningún mensaje");
        assert_eq!(informes[0].vivos, 2, "el cajón y el enrutador siguen vivos al parar");
    }
}
