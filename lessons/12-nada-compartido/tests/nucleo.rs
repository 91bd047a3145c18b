//! Pruebas del runtime con hilos. Ninguna depende del tiempo: cada una
//! prepara una situación cuyo resultado no cambia con el orden en que
//! corran los hilos (o espera a que todo termine antes de mirar).

use std::rc::Rc;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use nucleo::{Config, Ctx, Dir, Effect, Isolate, Lleno, Nucleo, Remitente, Salida, shard_de};

#[derive(Debug, PartialEq, Eq)]
enum Msg {
    Ping(u32),
    Pong(u32),
    /// Envía `n` mensajes de golpe a `para`.
    Rafaga {
        para: Dir,
        n: u32,
    },
    Cuantos,
    Van {
        recibidos: u32,
        rechazados: u32,
    },
    Explota,
    Crea,
    Adios,
}

/// Responde `Pong` a cada `Ping` y cuenta lo que le llega y lo que le rechazan.
#[derive(Default)]
struct Eco {
    recibidos: u32,
    rechazados: u32,
    /// Un `Rc`: el isolate no es `Send`, y no importa, porque no cambia de hilo.
    _no_send: Rc<()>,
}

impl Isolate for Eco {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Ping(n) => {
                self.recibidos += 1;
                Effect::Reply(Msg::Pong(n))
            }
            Msg::Pong(_) => {
                self.recibidos += 1;
                Effect::Noop
            }
            Msg::Rafaga { para, n } => Effect::Batch((0..n).map(|i| Effect::Send(para, Msg::Ping(i))).collect()),
            Msg::Cuantos => Effect::Reply(Msg::Van { recibidos: self.recibidos, rechazados: self.rechazados }),
            Msg::Explota => panic!("falla a propósito"),
            Msg::Crea => Effect::Spawn(Box::new(Eco::default()), Msg::Ping(99)),
            Msg::Adios => Effect::Batch(vec![Effect::Reply(Msg::Adios), Effect::Stop]),
            Msg::Van { .. } => Effect::Noop,
        }
    }

    fn rechazado(&mut self, _para: Dir, _msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        self.rechazados += 1;
        Effect::Noop
    }
}

fn arranca(shards: usize, capacidad_buzon: usize, por_shard: usize) -> Nucleo<Msg> {
    let config = Config { shards, capacidad_buzon, ..Config::default() };
    Nucleo::arranca(config, move |_| {
        (0..por_shard).map(|_| Box::new(Eco::default()) as Box<dyn Isolate<Msg = Msg>>).collect()
    })
}

fn recibe(salida: &Receiver<Salida<Msg>>) -> Salida<Msg> {
    salida.recv_timeout(Duration::from_secs(10)).expect("el runtime no respondió en 10 s")
}

/// Pregunta a `dir` cuántos mensajes recibió y cuántos le rechazaron.
fn pregunta(nucleo: &Nucleo<Msg>, dir: Dir) -> (u32, u32) {
    nucleo.try_send(dir, Msg::Cuantos).unwrap();
    match recibe(nucleo.salida()) {
        Salida::Respuesta(Msg::Van { recibidos, rechazados }) => (recibidos, rechazados),
        otra => panic!("esperaba Van, llegó {otra:?}"),
    }
}

#[test]
fn responde_a_quien_esta_fuera() {
    let nucleo = arranca(2, 256, 1);
    for shard in 0..2 {
        nucleo.try_send(Dir { shard, id: 0 }, Msg::Ping(shard as u32)).unwrap();
        assert_eq!(recibe(nucleo.salida()), Salida::Respuesta(Msg::Pong(shard as u32)));
    }
    let informes = nucleo.para();
    assert_eq!(informes.iter().map(|i| i.atendidos).sum::<u64>(), 2);
}

#[test]
fn un_buzon_lleno_devuelve_el_mensaje_a_quien_lo_envio() {
    // Dos isolates en el mismo shard, buzones de 8. Una ráfaga de 12 en un
    // solo efecto: caben 8, los otros 4 vuelven al que los envió.
    let nucleo = arranca(1, 8, 2);
    let (a, b) = (Dir { shard: 0, id: 0 }, Dir { shard: 0, id: 1 });
    nucleo.try_send(a, Msg::Rafaga { para: b, n: 12 }).unwrap();
    // Solo preguntamos a `a` (preguntar a `b` ocuparía sitio en su buzón):
    // hasta que cada Ping haya vuelto como Pong o como rechazo.
    let mut vueltas = 0;
    let (recibidos, rechazados) = loop {
        let (r, x) = pregunta(&nucleo, a);
        if r + x == 12 {
            break (r, x);
        }
        vueltas += 1;
        assert!(vueltas < 100_000, "no vuelven todos los Ping: {r} Pong y {x} rechazos");
    };
    assert_eq!(rechazados, 4, "los 4 que no cupieron vuelven a su remitente");
    assert_eq!(recibidos, 8, "a recibe un Pong por cada Ping que cupo");
    let informe = &nucleo.para()[0];
    assert_eq!(informe.rechazados, 4);
}

#[test]
fn los_mensajes_cruzan_de_shard() {
    let nucleo = arranca(2, 256, 1);
    let (a, b) = (Dir { shard: 0, id: 0 }, Dir { shard: 1, id: 0 });
    nucleo.try_send(a, Msg::Rafaga { para: b, n: 5 }).unwrap();
    // Espera a que vuelvan los 5 Pong.
    let mut vueltas = 0;
    while pregunta(&nucleo, a).0 < 5 {
        vueltas += 1;
        assert!(vueltas < 100_000, "los Pong no vuelven del otro shard");
    }
    assert_eq!(pregunta(&nucleo, b).0, 5);
    nucleo.para();
}

#[test]
fn un_panico_se_queda_en_su_isolate() {
    let nucleo = arranca(1, 256, 2);
    let (a, b) = (Dir { shard: 0, id: 0 }, Dir { shard: 0, id: 1 });
    nucleo.try_send(a, Msg::Explota).unwrap();
    nucleo.try_send(b, Msg::Ping(7)).unwrap();
    assert_eq!(recibe(nucleo.salida()), Salida::Respuesta(Msg::Pong(7)), "el shard sigue atendiendo");
    nucleo.try_send(a, Msg::Ping(8)).unwrap(); // a ya no existe
    nucleo.try_send(b, Msg::Ping(9)).unwrap();
    assert_eq!(recibe(nucleo.salida()), Salida::Respuesta(Msg::Pong(9)));
    let informe = &nucleo.para()[0];
    assert_eq!(informe.panicos.len(), 1);
    assert!(informe.panicos[0].contains("isolate 0:0: falla a propósito"), "{:?}", informe.panicos);
    assert_eq!(informe.perdidos, 1, "el Ping(8) para el isolate retirado se cuenta");
    assert_eq!(informe.vivos, 1);
}

#[test]
fn spawn_crea_en_el_mismo_shard_y_stop_retira() {
    let nucleo = arranca(1, 256, 1);
    let a = Dir { shard: 0, id: 0 };
    nucleo.try_send(a, Msg::Crea).unwrap();
    // El nuevo (0:1) recibe Ping(99) de a y le responde Pong(99).
    let nuevo = Dir { shard: 0, id: 1 };
    let mut vueltas = 0;
    while pregunta(&nucleo, a).0 < 1 {
        vueltas += 1;
        assert!(vueltas < 100_000, "el isolate creado no respondió");
    }
    nucleo.try_send(nuevo, Msg::Adios).unwrap();
    assert_eq!(recibe(nucleo.salida()), Salida::Respuesta(Msg::Adios));
    let informe = &nucleo.para()[0];
    assert_eq!(informe.vivos, 1, "el creado terminó con Stop");
}

#[test]
fn una_cola_llena_devuelve_el_mensaje_a_quien_esta_fuera() {
    // Una cola de 1 mensaje y un isolate que no la vacía mientras está
    // ocupado: llenarla es cuestión de enviar hasta que no quepa.
    let config = Config { shards: 1, capacidad_cola: 1, ..Config::default() };
    let nucleo: Nucleo<Msg> =
        Nucleo::arranca(config, |_| vec![Box::new(Eco::default()) as Box<dyn Isolate<Msg = Msg>>]);
    let mut devuelto = None;
    for n in 0..1_000_000 {
        if let Err(Lleno(msg)) = nucleo.try_send(Dir { shard: 0, id: 0 }, Msg::Ping(n)) {
            devuelto = Some((n, msg));
            break;
        }
    }
    let (n, msg) = devuelto.expect("con una cola de 1, alguna vez tiene que estar llena");
    assert_eq!(msg, Msg::Ping(n), "el mensaje vuelve entero");
    nucleo.para();
}

#[test]
fn el_reparto_por_clave_es_estable_y_equilibrado() {
    assert_eq!(shard_de(b"hola", 4), shard_de(b"hola", 4));
    let mut cuenta = [0u32; 4];
    for i in 0..10_000u32 {
        cuenta[shard_de(format!("clave-{i}").as_bytes(), 4)] += 1;
    }
    for c in cuenta {
        assert!((2_000..3_000).contains(&c), "reparto desigual: {cuenta:?}");
    }
}

#[test]
fn ctx_nuevo_sirve_para_probar_un_handle_a_mano() {
    let mut eco = Eco::default();
    let yo = Dir { shard: 0, id: 3 };
    let mut ctx = Ctx::nuevo(yo, Remitente::Fuera, 1);
    assert_eq!(ctx.yo(), yo);
    match eco.handle(Msg::Ping(1), &mut ctx) {
        Effect::Reply(Msg::Pong(1)) => {}
        otro => panic!("esperaba Reply(Pong(1)), fue {otro:?}"),
    }
}
