//! Los diseños, con la misma carga y las mismas medidas.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use medidas::{campo_de_proc, percentil};
use nucleo::{Azar, Ctx, Dir, Effect, Isolate, Nucleo, Salida, shard_de};
use tokio::sync::Semaphore;

use crate::{CLAVES, Config, Escenario, MIB, Peticion, Registro, Resultado, Variante, trabaja};

/// La tabla compartida de Tokio y Rayon: 64 franjas, cada una con su candado.
struct Tabla {
    franjas: Vec<Mutex<HashMap<u64, u64>>>,
}

impl Tabla {
    fn new() -> Tabla {
        Tabla { franjas: (0..64).map(|_| Mutex::new(HashMap::new())).collect() }
    }

    /// El cálculo, fuera del candado; el candado, solo para leer o escribir.
    fn atiende(&self, p: &Peticion) {
        let franja = &self.franjas[(p.clave % 64) as usize];
        if p.i.is_multiple_of(4) {
            let valor = franja.lock().unwrap().get(&p.clave).copied();
            std::hint::black_box(trabaja(valor.unwrap_or(p.clave), p.rondas));
        } else {
            let valor = trabaja(p.i as u64, p.rondas);
            franja.lock().unwrap().insert(p.clave, valor);
        }
    }
}

/// Lo mismo, en el mapa propio de un isolate (sin candado). Leer o
/// escribir, la clave exista o no, cuesta el mismo cálculo.
fn atiende_en(mapa: &mut HashMap<u64, u64>, p: &Peticion) {
    if p.i.is_multiple_of(4) {
        std::hint::black_box(trabaja(mapa.get(&p.clave).copied().unwrap_or(p.clave), p.rondas));
    } else {
        mapa.insert(p.clave, trabaja(p.i as u64, p.rondas));
    }
}

// ANCHOR: generador
/// El generador de carga: a ritmo fijo durante `c.duracion`, sin esperar
/// respuestas (carga abierta). `envia` devuelve `false` si la petición se
/// rechazó. Devuelve cuántas ofreció y cuántas se rechazaron al enviar.
fn genera(
    c: &Config,
    inicio: Instant,
    mut envia: impl FnMut(Peticion) -> bool,
    mut entre_lotes: impl FnMut(),
) -> (u64, u64) {
    let mut azar = Azar::new(14);
    let (total, mut enviadas, mut rechazadas) = (c.peticiones() as u64, 0u64, 0u64);
    while enviadas < total {
        let toca = ((inicio.elapsed().as_secs_f64() * c.ritmo) as u64).min(total);
        while enviadas < toca {
            let nacida_us = (enviadas as f64 / c.ritmo * 1e6) as u64; // la hora del plan
            let clave = match c.escenario {
                Escenario::Caliente if enviadas % 4 != 0 => 0,
                _ => azar.siguiente() % CLAVES,
            };
            let i = enviadas as usize;
            let p = Peticion { i, clave, rondas: c.escenario.rondas(i), nacida_us };
            if !envia(p) {
                rechazadas += 1;
            }
            enviadas += 1;
        }
        entre_lotes();
        std::thread::sleep(Duration::from_micros(100));
    }
    (enviadas, rechazadas)
}
// ANCHOR_END: generador

/// Un almacén de `nucleo`: su propio mapa, sin candados.
struct Almacen {
    datos: HashMap<u64, u64>,
    registro: Arc<Registro>,
}

impl Isolate for Almacen {
    type Msg = Peticion;

    fn handle(&mut self, p: Peticion, _ctx: &mut Ctx) -> Effect<Peticion> {
        atiende_en(&mut self.datos, &p);
        self.registro.completa(&p);
        Effect::Noop
    }
}

/// Ejecuta una variante, espera a que termine todo lo aceptado y mide.
pub fn ejecuta(v: Variante, c: &Config) -> Resultado {
    let registro = Arc::new(Registro::new(c.peticiones()));
    let inicio = registro.inicio;
    let tabla = Arc::new(Tabla::new());
    let mut robos = -1;
    let (ofrecidas, rechazadas) = match v {
        // ANCHOR: variantes
        Variante::TokioSinLimite => {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(c.hilos).build().unwrap();
            let r = genera(
                c,
                inicio,
                |p| {
                    let (tabla, registro) = (tabla.clone(), registro.clone());
                    rt.spawn(async move {
                        tabla.atiende(&p);
                        registro.completa(&p);
                    });
                    true
                },
                || {},
            );
            espera(&registro, r);
            robos = robados(&rt);
            r
        }
        Variante::TokioSemaforo | Variante::TokioSemaforoMitad => {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(c.hilos).build().unwrap();
            let limite = if v == Variante::TokioSemaforo { c.limite } else { c.limite_mitad };
            let permisos = Arc::new(Semaphore::new(limite));
            let r = genera(
                c,
                inicio,
                |p| match permisos.clone().try_acquire_owned() {
                    Ok(permiso) => {
                        let (tabla, registro) = (tabla.clone(), registro.clone());
                        rt.spawn(async move {
                            tabla.atiende(&p);
                            registro.completa(&p);
                            drop(permiso);
                        });
                        true
                    }
                    Err(_) => false, // sin permiso: se rechaza en el acto
                },
                || {},
            );
            espera(&registro, r);
            robos = robados(&rt);
            r
        }
        Variante::Rayon => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(c.hilos).build().unwrap();
            let r = genera(
                c,
                inicio,
                |p| {
                    let (tabla, registro) = (tabla.clone(), registro.clone());
                    pool.spawn(move || {
                        tabla.atiende(&p);
                        registro.completa(&p);
                    });
                    true
                },
                || {},
            );
            espera(&registro, r);
            r
        }
        Variante::Nucleo => {
            let config = nucleo::Config {
                shards: c.hilos,
                capacidad_cola: c.cola,
                capacidad_buzon: c.buzon,
                ..Default::default()
            };
            let para_isolates = registro.clone();
            let nucleo = Nucleo::arranca(config, move |_| {
                let almacen = Almacen { datos: HashMap::new(), registro: para_isolates.clone() };
                vec![Box::new(almacen) as Box<dyn Isolate<Msg = Peticion>>]
            });
            let en_buzon = Cell::new(0u64); // rechazos que llegan por la salida
            let drena = || {
                while let Ok(Salida::Rechazado { .. }) = nucleo.salida().try_recv() {
                    en_buzon.set(en_buzon.get() + 1);
                }
            };
            let (ofrecidas, en_cola) = genera(
                c,
                inicio,
                |p| {
                    let shard = shard_de(&p.clave.to_le_bytes(), c.hilos);
                    nucleo.try_send(Dir { shard, id: 0 }, p).is_ok()
                },
                &drena,
            );
            while registro.completadas() + en_cola + en_buzon.get() < ofrecidas && inicio.elapsed() < LIMITE {
                drena();
                std::thread::sleep(Duration::from_millis(1));
            }
            nucleo.para();
            (ofrecidas, en_cola + en_buzon.get())
        } // ANCHOR_END: variantes
    };
    let latencias = registro.latencias_ordenadas();
    let hasta_la_ultima = registro.ultima();
    Resultado {
        repeticion: 0,
        variante: v,
        escenario: c.escenario,
        ofrecidas,
        completadas: registro.completadas(),
        rechazadas,
        rendimiento: registro.completadas() as f64 / hasta_la_ultima.as_secs_f64().max(1e-9),
        p50_us: percentil(&latencias, 50.0).unwrap_or(0),
        p99_us: percentil(&latencias, 99.0).unwrap_or(0),
        pico_mib: campo_de_proc("VmHWM").map_or(-1.0, |b| b as f64 / MIB as f64),
        hasta_la_ultima_ms: hasta_la_ultima.as_millis() as u64,
        robos,
    }
}

/// Cuántas tareas robaron entre sí los hilos trabajadores de `rt`. Solo se
/// sabe compilando con `--cfg tokio_unstable`; si no, -1.
#[cfg(tokio_unstable)]
fn robados(rt: &tokio::runtime::Runtime) -> i64 {
    let m = rt.metrics();
    (0..m.num_workers()).map(|w| m.worker_steal_count(w)).sum::<u64>() as i64
}

#[cfg(not(tokio_unstable))]
fn robados(_rt: &tokio::runtime::Runtime) -> i64 {
    -1
}

/// Lo más que se espera a que terminen las peticiones aceptadas.
const LIMITE: Duration = Duration::from_secs(120);

/// Espera a que se completen todas las peticiones aceptadas.
fn espera(registro: &Registro, (ofrecidas, rechazadas): (u64, u64)) {
    while registro.completadas() + rechazadas < ofrecidas && registro.inicio.elapsed() < LIMITE {
        std::thread::sleep(Duration::from_millis(1));
    }
}
