//! `cargo run -p soluciones-12`: las tres soluciones del capítulo 12 en marcha,
//! sobre el runtime con hilos.

use std::time::Duration;

use nada_compartido::{almacen, contrapresion, enruta};
use nucleo::{Config, Dir, Isolate, Nucleo, Salida};

fn espera<M: Send + 'static>(nucleo: &Nucleo<M>) -> Salida<M> {
    nucleo.salida().recv_timeout(Duration::from_secs(10)).expect("el runtime no respondió en 10 s")
}

fn main() {
    println!("1. almacen: un isolate clave-valor, en un shard");
    let nucleo: Nucleo<almacen::Kv> = Nucleo::arranca(Config { shards: 1, ..Config::default() }, |_| {
        vec![Box::new(almacen::Almacen::default()) as Box<dyn Isolate<Msg = almacen::Kv>>]
    });
    let dir = Dir { shard: 0, id: 0 };
    for peticion in [
        almacen::Kv::Pon { clave: "visitas".into(), valor: 10 },
        almacen::Kv::Suma { clave: "visitas".into(), cuanto: 5 },
        almacen::Kv::Pon { clave: "visitas".into(), valor: 0 },
        almacen::Kv::Cierra,
    ] {
        let texto = format!("{peticion:?}");
        nucleo.try_send(dir, peticion).unwrap();
        println!("   {texto:<45} -> {:?}", espera(&nucleo));
    }
    println!("   isolates vivos al parar: {}", nucleo.para()[0].vivos);

    println!("2. contrapresion: 2 000 datos del shard 0 al shard 1, buzones de 16");
    let config = Config { shards: 2, capacidad_buzon: 16, ..Config::default() };
    let nucleo: Nucleo<contrapresion::Flujo> = Nucleo::arranca(config, |shard| {
        if shard == 0 {
            vec![Box::new(contrapresion::Productor::default()) as Box<dyn Isolate<Msg = _>>]
        } else {
            vec![Box::new(contrapresion::Consumidor::default()) as Box<dyn Isolate<Msg = _>>]
        }
    });
    let (productor, consumidor) = (Dir { shard: 0, id: 0 }, Dir { shard: 1, id: 0 });
    nucleo.try_send(productor, contrapresion::Flujo::Empieza { para: consumidor, n: 2_000 }).unwrap();
    // Pregunta al consumidor (no al productor, que anda ocupado con sus
    // rechazos) hasta que tenga los 2 000 datos.
    let mut recibidos = Vec::new();
    for _ in 0..10_000 {
        std::thread::sleep(Duration::from_millis(1));
        if nucleo.try_send(consumidor, contrapresion::Flujo::Estado).is_ok()
            && let Salida::Respuesta(contrapresion::Flujo::Recibidos(v)) = espera(&nucleo)
        {
            recibidos = v;
            if recibidos.len() == 2_000 {
                break;
            }
        }
    }
    recibidos.sort();
    recibidos.dedup();
    println!("   el consumidor tiene {} datos distintos", recibidos.len());
    // Y al productor, hasta que le hayan llegado todos los Ack.
    let mut informe = None;
    for _ in 0..1_000 {
        std::thread::sleep(Duration::from_millis(1));
        if nucleo.try_send(productor, contrapresion::Flujo::Estado).is_ok()
            && let Salida::Respuesta(i @ contrapresion::Flujo::Informe { confirmados, .. }) = espera(&nucleo)
        {
            informe = Some(i);
            if confirmados == 2_000 {
                break;
            }
        }
    }
    println!("   el productor informa: {informe:?}");
    if let Some(contrapresion::Flujo::Informe { confirmados, .. }) = informe
        && confirmados < 2_000
    {
        println!(
            "   faltan {} Ack: no cupieron en el buzón del productor. También una respuesta se puede rechazar.",
            2_000 - confirmados
        );
    }
    let informes = nucleo.para();
    println!(
        "   rechazos contados por el runtime: shard 0 = {}, shard 1 = {}",
        informes[0].rechazados, informes[1].rechazados
    );

    println!("3. enruta: un enrutador en el shard 0 reparte claves entre 3 shards");
    let nucleo: Nucleo<enruta::Kv> = Nucleo::arranca(Config { shards: 3, ..Config::default() }, |shard| {
        let mut isolates: Vec<Box<dyn Isolate<Msg = enruta::Kv>>> = vec![Box::new(enruta::Cajon::default())];
        if shard == 0 {
            isolates.push(Box::new(enruta::Enrutador));
        }
        isolates
    });
    for (i, clave) in ["ana", "luis", "marta", "pedro", "sara", "tomas"].into_iter().enumerate() {
        nucleo.try_send(Dir { shard: 0, id: 1 }, enruta::Kv::Pon { clave: clave.into(), valor: i as i64 }).unwrap();
        println!("   «{clave}» -> {:?} (dir_de dice {})", espera(&nucleo), enruta::dir_de(clave, 3));
    }
    nucleo.para();
}
