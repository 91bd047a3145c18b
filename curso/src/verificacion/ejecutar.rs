//! Ejecutar las pruebas de cada variante, varias a la vez y con límite de
//! tiempo.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::variantes::{Clase, Variante, Variantes, variante};
use crate::error::Error;
use crate::modelo::{Curso, Ejercicio};
use crate::procesos::Proceso;

/// Lo más que puede tardar una ejecución de pruebas antes de darla por colgada.
pub const LIMITE: Duration = Duration::from_secs(120);

/// Cuántas ejecuciones de pruebas van a la vez. Casi todo su tiempo es
/// esperar: las respuestas incorrectas que se cuelgan esperan a que salte la
/// red de seguridad de sus pruebas.
const A_LA_VEZ: usize = 6;

/// Lo que pasó al ejecutar unas pruebas.
#[derive(Debug, Clone)]
pub struct Ejecucion {
    pub pasan: bool,
    /// Cuántas pruebas corrieron (lo que dice libtest: `running N tests`).
    pub corridas: usize,
    pub colgada: bool,
    pub salida: String,
    /// Lo que tardó.
    pub segundos: f64,
    /// Las pruebas que pasaron (`test NOMBRE ... ok`); las demás fallaron o
    /// no llegaron a terminar.
    pub pasadas: std::collections::BTreeSet<String>,
}

/// Los resultados de cada ejecución de pruebas, por ejecutable y pruebas.
pub type Resultados = BTreeMap<(PathBuf, Vec<String>), Result<Ejecucion, Error>>;

/// Un trabajo: el ejecutable, su carpeta, las pruebas y el límite.
type Trabajo = (PathBuf, PathBuf, Vec<String>, Duration);

/// Ejecuta un programa en `dir` con un límite de tiempo y recoge su salida.
pub fn correr(exe: &Path, dir: &Path, args: &[String], limite: Duration) -> Result<Ejecucion, Error> {
    let r = Proceso::programa(exe).args(args).en(dir).env("RUST_BACKTRACE", "0").con_limite(limite)?;
    let corridas =
        r.salida.lines().find_map(|l| l.strip_prefix("running ")?.split_whitespace().next()?.parse().ok()).unwrap_or(0);
    let pasadas =
        r.salida.lines().filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... ok")).map(str::to_owned).collect();
    Ok(Ejecucion { pasan: r.exito, corridas, colgada: r.colgada, salida: r.salida, segundos: r.segundos, pasadas })
}

/// Los nombres de todas las pruebas de un ejecutable.
pub fn listar(exe: &Path, dir: &Path) -> Result<Vec<String>, Error> {
    let salida = Proceso::programa(exe).args(["--list", "--format", "terse"]).en(dir).salida()?;
    Ok(salida.stdout().lines().filter_map(|l| l.strip_suffix(": test")).map(str::to_owned).collect())
}

/// Con qué código inicial se prueba el ejercicio `i`: solo el suyo sobre la
/// solución (verificación completa) o, si no está, el del capítulo entero.
pub fn inicial_de<'a>(variantes: &'a Variantes, e: &Ejercicio, i: usize) -> Option<&'a Variante> {
    variante(variantes, e, &Clase::Mutante(i)).or_else(|| variante(variantes, e, &Clase::Inicial))
}

/// Ejecuta, varias a la vez, las pruebas de cada ejercicio con la solución,
/// con su código inicial y con cada respuesta incorrecta. Las de la
/// solución van primero y solas, para que nada les quite CPU; en las que
/// deben fallar, todas las pruebas corren a la vez (`--test-threads`), así
/// que las que se cuelgan esperan juntas.
pub fn ejecutar_todas(curso: &Curso, variantes: &Variantes) -> Resultados {
    let solucion_de = |e: &Ejercicio| variante(variantes, e, &Clase::Solucion);
    let trabajo = |v: &Variante, e: &Ejercicio, limite| {
        v.ejecutable.as_ref().map(|exe| (exe.clone(), v.dir.clone(), e.pruebas.clone(), limite))
    };
    let mut deben_pasar: Vec<Trabajo> =
        curso.ejercicios.iter().filter_map(|e| trabajo(solucion_de(e)?, e, LIMITE)).collect();
    // Cada ejercicio resuelto solo, con sus vecinos sin resolver, pasa.
    for (i, e) in curso.ejercicios.iter().enumerate() {
        deben_pasar.extend(variante(variantes, e, &Clase::Sola(i)).and_then(|v| trabajo(v, e, LIMITE)));
    }
    let mut resultados = en_paralelo(deben_pasar, A_LA_VEZ.min(2), false);
    let mut deben_fallar = Vec::new();
    for (i, e) in curso.ejercicios.iter().enumerate() {
        // Una respuesta incorrecta puede fallar o colgarse: las dos cosas la
        // rechazan. Si tarda el triple que la solución (y al menos 5 s), no
        // hace falta esperar a la red de seguridad de sus pruebas.
        let solucion = solucion_de(e)
            .and_then(|v| v.ejecutable.as_ref())
            .and_then(|exe| resultados.get(&(exe.clone(), e.pruebas.clone())))
            .and_then(|r| r.as_ref().ok())
            .map_or(LIMITE.as_secs_f64(), |r| r.segundos);
        let para_incorrectas = Duration::from_secs_f64((3.0 * solucion).clamp(5.0, LIMITE.as_secs_f64()));
        deben_fallar.extend(inicial_de(variantes, e, i).filter(|_| !e.compilar).and_then(|v| trabajo(v, e, LIMITE)));
        for incorrecta in &e.incorrectas {
            let clase = Clase::Incorrecta(i, incorrecta.clone());
            deben_fallar.extend(variante(variantes, e, &clase).and_then(|v| trabajo(v, e, para_incorrectas)));
        }
    }
    resultados.extend(en_paralelo(deben_fallar, A_LA_VEZ, true));
    resultados
}

fn en_paralelo(trabajos: Vec<Trabajo>, hilos: usize, todas_a_la_vez: bool) -> Resultados {
    let siguiente = std::sync::atomic::AtomicUsize::new(0);
    let hechos = std::sync::Mutex::new(Resultados::new());
    std::thread::scope(|s| {
        for _ in 0..hilos {
            s.spawn(|| {
                loop {
                    let i = siguiente.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((exe, dir, nombres, limite)) = trabajos.get(i) else { break };
                    let mut args = vec!["--exact".to_string()];
                    if todas_a_la_vez {
                        args.push(format!("--test-threads={}", nombres.len().max(1)));
                    }
                    args.extend(nombres.iter().cloned());
                    let r = correr(exe, dir, &args, *limite);
                    hechos.lock().unwrap().insert((exe.clone(), nombres.clone()), r);
                }
            });
        }
    });
    hechos.into_inner().unwrap()
}
