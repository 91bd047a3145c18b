//! Cada ejercicio se prueba a sí mismo.
//!
//! Para cada capítulo con ejercicios se genera, en `target/verificacion/`, un
//! espacio de trabajo aparte con estas variantes, que se compilan de una vez:
//!
//! - la solución tal cual: todas las pruebas de cada ejercicio pasan;
//! - el ejercicio tal cual: compila, salvo que tenga un ejercicio «haz que
//!   compile»;
//! - por cada ejercicio X, la solución con el archivo de X tomado del
//!   ejercicio: las pruebas de X fallan (o, si X es «haz que compile», no
//!   compila, y el error señala el archivo de X). Así cada ejercicio
//!   demuestra su propio fallo, no el de sus vecinos;
//! - por cada respuesta incorrecta de X, la solución con esa respuesta: las
//!   pruebas de X fallan.
//!
//! Las pruebas son siempre las mismas: las de `exercises/NN-.../tests/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::ejercicios::{self, Ejercicio};
use crate::iniciales;

/// Lo más que puede tardar una ejecución de pruebas antes de darla por colgada.
const LIMITE: Duration = Duration::from_secs(120);

/// Lo que encontró la verificación.
#[derive(Debug, Default)]
pub struct Informe {
    /// Cada cosa que está mal, en una frase que nombra el ejercicio.
    pub problemas: Vec<String>,
    /// Una línea por ejercicio verificado.
    pub resumen: Vec<String>,
    /// Cuánto tardó cada fase (compilar, cada capítulo).
    pub tiempos: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tipo {
    Solucion,
    Inicial,
    /// La solución con el archivo del ejercicio `usize` tomado del inicial.
    Mutante(usize),
    /// La solución con una respuesta incorrecta del ejercicio `usize`.
    Incorrecta(usize, String),
}

#[derive(Debug)]
struct Variante {
    tipo: Tipo,
    dir: PathBuf,
    ejecutable: Option<PathBuf>,
    /// El binario de la demo (solo en la variante de la solución).
    demo: Option<PathBuf>,
    errores: Vec<ErrorDeCompilacion>,
}

#[derive(Debug, Clone)]
struct ErrorDeCompilacion {
    texto: String,
    archivos: Vec<String>,
}

/// Hasta dónde llega la verificación.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alcance {
    /// Lo que ve quien aprende: con el código inicial de su capítulo, las
    /// pruebas de cada ejercicio fallan (o no compila, si es «haz que
    /// compile»), y son exactamente las de la lista. Es la que corre
    /// `cargo test`: una variante por capítulo. Que la solución pasa esas
    /// mismas pruebas ya lo demuestra `cargo test` al probar `soluciones-NN`,
    /// que usa el mismo archivo de pruebas.
    Esencial,
    /// Además, la solución pasa y su demo se ejecuta, cada ejercicio
    /// demuestra su propio fallo (la solución con solo su archivo tomado del
    /// inicial) y cada respuesta incorrecta conocida falla. Es la que corre `cargo curso mantenimiento comprueba` (y la
    /// integración continua, justo después de `cargo test`).
    Completa,
}

/// Verifica los ejercicios de la lista.
pub fn verificar(raiz: &Path, lista: &[Ejercicio], alcance: Alcance) -> Informe {
    let mut informe = Informe { problemas: ejercicios::validar(raiz, lista), ..Default::default() };
    if !informe.problemas.is_empty() {
        return informe;
    }
    // Un espacio de trabajo por conjunto de capítulos, con un `target/` común:
    // dos verificaciones de capítulos distintos pueden correr a la vez.
    let capitulos: Vec<&str> = ejercicios::capitulos(lista).iter().map(|c| &c[..2]).collect();
    let verificacion = raiz.join("target").join("verificacion");
    let base = verificacion.join(format!("ws-{}", capitulos.join("-")));
    let mut variantes = match preparar(raiz, lista, &base) {
        Ok(v) => v,
        Err(e) => {
            informe.problemas.push(e);
            return informe;
        }
    };
    // Las demás variantes se escriben igual (así no se borran de una
    // verificación completa anterior), pero no se compilan ni se prueban.
    if alcance == Alcance::Esencial {
        variantes.retain(|_, v| v.tipo == Tipo::Inicial);
    }
    let inicio = Instant::now();
    // El mismo `target/` que el resto del curso: las dependencias (Tokio,
    // Rayon...) ya están compiladas con las mismas opciones y no se repiten.
    // Las variantes tienen sus propios nombres de paquete, así que no pisan
    // nada del espacio de trabajo.
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| raiz.join("target"), |t| raiz.join(t));
    if let Err(e) = compilar(&base, &target, &mut variantes) {
        informe.problemas.push(e);
        return informe;
    }
    informe.tiempos.push(format!("compilar {} variantes: {:.1} s", variantes.len(), inicio.elapsed().as_secs_f64()));
    let inicio = Instant::now();
    let resultados = ejecutar_todas(lista, &variantes);
    informe.tiempos.push(format!(
        "ejecutar {} pruebas de variantes: {:.1} s",
        resultados.len(),
        inicio.elapsed().as_secs_f64()
    ));
    let inicio = Instant::now();
    for capitulo in ejercicios::capitulos(lista) {
        comprobar_capitulo(lista, capitulo, &variantes, &resultados, &mut informe);
    }
    informe.tiempos.push(format!("listas y demos: {:.1} s", inicio.elapsed().as_secs_f64()));
    informe
}

fn nombre_paquete(e: &Ejercicio, tipo: &Tipo) -> String {
    let n = e.numero();
    match tipo {
        Tipo::Solucion => format!("v{n}-solucion"),
        Tipo::Inicial => format!("v{n}-inicial"),
        Tipo::Mutante(_) => format!("v{n}-{}-inicial", e.nombre),
        Tipo::Incorrecta(_, archivo) => {
            let base = Path::new(archivo).file_stem().unwrap_or_default().to_string_lossy();
            format!("v{n}-{}-incorrecta-{base}", e.nombre)
        }
    }
}

fn preparar(raiz: &Path, lista: &[Ejercicio], base: &Path) -> Result<BTreeMap<String, Variante>, String> {
    // Los archivos se escriben solo si cambian, y lo que sobra de una
    // verificación anterior se borra al final: así cargo no recompila las
    // variantes que no cambiaron.
    let crates = base.join("crates");
    fs::create_dir_all(&crates).map_err(|e| format!("no puedo crear {}: {e}", crates.display()))?;
    let mut escritos = BTreeSet::new();

    // El Cargo.toml del espacio de trabajo: el de la raíz con otros miembros.
    let texto = fs::read_to_string(raiz.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let mut manifiesto: toml::Table = toml::from_str(&texto).map_err(|e| e.to_string())?;
    let ws = manifiesto
        .get_mut("workspace")
        .and_then(|w| w.as_table_mut())
        .ok_or("el Cargo.toml de la raíz no tiene [workspace]")?;
    ws.insert("members".into(), toml::Value::Array(vec!["crates/*".into()]));
    ws.remove("default-members");
    // Sin información de depuración: nadie va a depurar las variantes, y
    // compilan y enlazan antes.
    let perfil = manifiesto
        .entry("profile")
        .or_insert_with(|| toml::Value::Table(Default::default()))
        .as_table_mut()
        .map(|p| p.entry("dev").or_insert_with(|| toml::Value::Table(Default::default())))
        .and_then(|d| d.as_table_mut());
    if let Some(dev) = perfil {
        dev.insert("debug".into(), false.into());
        dev.insert("codegen-units".into(), 1.into());
    }
    escribir(&base.join("Cargo.toml"), &toml::to_string(&manifiesto).map_err(|e| e.to_string())?)?;
    if raiz.join("Cargo.lock").is_file() {
        let lock = fs::read(raiz.join("Cargo.lock")).map_err(|e| e.to_string())?;
        escribir_bytes(&base.join("Cargo.lock"), &lock)?;
    }

    let mut variantes = BTreeMap::new();
    // El código inicial de cada ejercicio tal como se publicó, aunque hayas
    // trabajado los ejercicios en tu copia.
    let hashes = iniciales::cargar(raiz)?;
    let mut inicial = BTreeMap::new();
    for e in lista {
        inicial.insert(e.nombre.clone(), iniciales::contenido(raiz, e, &hashes)?);
    }
    // `ws-06-07` → `0.1.0-ws-06-07`: una versión por espacio de verificación.
    let version = format!("0.1.0-{}", base.file_name().unwrap_or_default().to_string_lossy());
    let mut anadir = |e: &Ejercicio, tipo: Tipo, origen: PathBuf, reemplazos: Vec<(&str, Vec<u8>)>| {
        let paquete = nombre_paquete(e, &tipo);
        let dir = crates.join(&paquete);
        let reemplazos: BTreeMap<PathBuf, Vec<u8>> =
            reemplazos.into_iter().map(|(archivo, contenido)| (PathBuf::from(archivo), contenido)).collect();
        copiar_crate(&origen, &dir, &paquete, &version, &reemplazos, &mut escritos)?;
        variantes.insert(paquete, Variante { tipo, dir, ejecutable: None, demo: None, errores: Vec::new() });
        Ok::<(), String>(())
    };
    for capitulo in ejercicios::capitulos(lista) {
        let primero = lista.iter().find(|e| e.capitulo == capitulo).expect("capítulo con ejercicios");
        anadir(primero, Tipo::Solucion, raiz.join(primero.carpeta_solucion()), vec![])?;
        let todos_iniciales = lista
            .iter()
            .filter(|e| e.capitulo == capitulo)
            .map(|e| (e.archivo.as_str(), inicial[&e.nombre].clone()))
            .collect();
        anadir(primero, Tipo::Inicial, raiz.join(primero.carpeta()), todos_iniciales)?;
    }
    for (i, e) in lista.iter().enumerate() {
        let solucion = raiz.join(e.carpeta_solucion());
        anadir(e, Tipo::Mutante(i), solucion.clone(), vec![(&e.archivo, inicial[&e.nombre].clone())])?;
        for incorrecta in &e.incorrectas {
            let contenido = fs::read(solucion.join(incorrecta)).map_err(|err| format!("{incorrecta}: {err}"))?;
            anadir(e, Tipo::Incorrecta(i, incorrecta.clone()), solucion.clone(), vec![(&e.archivo, contenido)])?;
        }
    }
    borrar_sobrantes(&crates, &escritos).map_err(|e| format!("no puedo limpiar {}: {e}", crates.display()))?;
    Ok(variantes)
}

/// Borra, debajo de `dir`, los archivos que no están en `escritos` y las
/// carpetas que se quedan vacías.
fn borrar_sobrantes(dir: &Path, escritos: &BTreeSet<PathBuf>) -> std::io::Result<()> {
    for entrada in fs::read_dir(dir)? {
        let ruta = entrada?.path();
        if ruta.is_dir() {
            borrar_sobrantes(&ruta, escritos)?;
            if fs::read_dir(&ruta)?.next().is_none() {
                fs::remove_dir(&ruta)?;
            }
        } else if !escritos.contains(&ruta) {
            fs::remove_file(&ruta)?;
        }
    }
    Ok(())
}

fn escribir(ruta: &Path, texto: &str) -> Result<(), String> {
    escribir_bytes(ruta, texto.as_bytes())
}

/// Escribe solo si el contenido cambia, para no tocar la fecha del archivo.
fn escribir_bytes(ruta: &Path, bytes: &[u8]) -> Result<(), String> {
    if fs::read(ruta).is_ok_and(|actual| actual == bytes) {
        return Ok(());
    }
    if let Some(carpeta) = ruta.parent() {
        fs::create_dir_all(carpeta).map_err(|e| format!("no puedo crear {}: {e}", carpeta.display()))?;
    }
    fs::write(ruta, bytes).map_err(|e| format!("no puedo escribir {}: {e}", ruta.display()))
}

/// Copia un crate (sin `target/`) y ajusta su `Cargo.toml`: otro nombre de
/// paquete, una versión propia de este espacio de trabajo y rutas absolutas
/// para lo que queda fuera del crate.
///
/// La versión importa: cargo distingue los artefactos de un paquete local
/// por su nombre, su versión y su ruta *relativa* a la raíz del espacio de
/// trabajo. Dos espacios de verificación (un capítulo, todos) tienen las
/// mismas rutas relativas y comparten `target/`; sin otra versión, uno
/// usaría lo que compiló el otro.
fn copiar_crate(
    origen: &Path,
    destino: &Path,
    paquete: &str,
    version: &str,
    reemplazos: &BTreeMap<PathBuf, Vec<u8>>,
    escritos: &mut BTreeSet<PathBuf>,
) -> Result<(), String> {
    copiar_carpeta(origen, destino, Path::new(""), reemplazos, escritos)?;
    escritos.insert(destino.join("Cargo.toml"));
    let texto = fs::read_to_string(origen.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let mut m: toml::Table = toml::from_str(&texto).map_err(|e| format!("{}: {e}", origen.display()))?;
    if let Some(p) = m.get_mut("package").and_then(|p| p.as_table_mut()) {
        p.insert("name".into(), paquete.into());
        p.insert("version".into(), version.into());
    }
    let fija = |v: &mut toml::Value| {
        if let Some(t) = v.as_table_mut()
            && let Some(toml::Value::String(ruta)) = t.get("path")
        {
            let absoluta = normalizar(&origen.join(ruta));
            if !absoluta.starts_with(origen) {
                t.insert("path".into(), absoluta.to_string_lossy().into_owned().into());
            }
        }
    };
    for (clave, valor) in m.iter_mut() {
        match clave.as_str() {
            "lib" => fija(valor),
            "bin" | "test" | "example" | "bench" => {
                for v in valor.as_array_mut().into_iter().flatten() {
                    fija(v);
                }
            }
            "dependencies" | "dev-dependencies" | "build-dependencies" => {
                for (_, v) in valor.as_table_mut().into_iter().flatten() {
                    fija(v);
                }
            }
            _ => {}
        }
    }
    escribir(&destino.join("Cargo.toml"), &toml::to_string(&m).map_err(|e| e.to_string())?)
}

/// Copia `origen` en `destino` (sin `target/`), con el contenido de
/// `reemplazos` (por ruta relativa) en lugar del original, y anota en
/// `escritos` cada archivo copiado.
fn copiar_carpeta(
    origen: &Path,
    destino: &Path,
    relativa: &Path,
    reemplazos: &BTreeMap<PathBuf, Vec<u8>>,
    escritos: &mut BTreeSet<PathBuf>,
) -> Result<(), String> {
    let entradas =
        fs::read_dir(origen.join(relativa)).map_err(|e| format!("no puedo leer {}: {e}", origen.display()))?;
    for entrada in entradas.flatten() {
        let nombre = entrada.file_name();
        if nombre == "target" {
            continue;
        }
        let rel = relativa.join(&nombre);
        if entrada.file_type().is_ok_and(|t| t.is_dir()) {
            copiar_carpeta(origen, destino, &rel, reemplazos, escritos)?;
        } else {
            let contenido = match reemplazos.get(&rel) {
                Some(c) => c.clone(),
                None => {
                    fs::read(entrada.path()).map_err(|e| format!("no puedo leer {}: {e}", entrada.path().display()))?
                }
            };
            escribir_bytes(&destino.join(&rel), &contenido)?;
            escritos.insert(destino.join(&rel));
        }
    }
    Ok(())
}

/// Quita `.` y `..` de una ruta sin tocar el disco.
pub fn normalizar(ruta: &Path) -> PathBuf {
    let mut salida = PathBuf::new();
    for c in ruta.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                salida.pop();
            }
            otro => salida.push(otro),
        }
    }
    salida
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    // Nada de lo que el cargo de fuera haya puesto debe cambiar esta compilación.
    for var in ["CARGO_TARGET_DIR", "CARGO_MANIFEST_DIR", "CARGO_PRIMARY_PACKAGE", "RUSTC_WORKSPACE_WRAPPER"] {
        c.env_remove(var);
    }
    c
}

/// Compila todas las variantes de una vez y anota, para cada una, su
/// ejecutable de pruebas o sus errores.
fn compilar(base: &Path, target: &Path, variantes: &mut BTreeMap<String, Variante>) -> Result<(), String> {
    let salida = cargo()
        .args(["build", "--tests", "--keep-going", "--message-format=json", "--quiet"])
        .args(variantes.keys().flat_map(|p| ["-p", p.as_str()]))
        // Cada variante se compila casi siempre una sola vez: la compilación
        // incremental solo añadiría trabajo.
        .env("CARGO_INCREMENTAL", "0")
        .arg("--manifest-path")
        .arg(base.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("no puedo ejecutar cargo: {e}"))?;
    // Las demos de las soluciones (`cargo run -p soluciones-NN`), si hay
    // variantes de la solución (sin ningún `-p`, cargo compilaría todo).
    let soluciones: Vec<&String> =
        variantes.iter().filter(|(_, v)| v.tipo == Tipo::Solucion).map(|(paquete, _)| paquete).collect();
    let salida_demos = if soluciones.is_empty() {
        None
    } else {
        let mut demos = cargo();
        demos
            .args(["build", "--bins", "--message-format=json", "--quiet"])
            .arg("--manifest-path")
            .arg(base.join("Cargo.toml"));
        for paquete in soluciones {
            demos.args(["-p", paquete]);
        }
        let salida = demos
            .env("CARGO_TARGET_DIR", target)
            .env("CARGO_INCREMENTAL", "0")
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("no puedo ejecutar cargo: {e}"))?;
        Some(salida)
    };
    let por_manifiesto: BTreeMap<PathBuf, String> =
        variantes.iter().map(|(paquete, v)| (v.dir.join("Cargo.toml"), paquete.clone())).collect();
    let mensajes = String::from_utf8_lossy(&salida.stdout).into_owned()
        + &salida_demos.map(|d| String::from_utf8_lossy(&d.stdout).into_owned()).unwrap_or_default();
    for linea in mensajes.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(linea) else { continue };
        let Some(manifiesto) = msg["manifest_path"].as_str() else { continue };
        let Some(paquete) = por_manifiesto.get(Path::new(manifiesto)) else { continue };
        let variante = variantes.get_mut(paquete).expect("variante conocida");
        match msg["reason"].as_str() {
            Some("compiler-artifact") => {
                let tipo = |t: &str| msg["target"]["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == t));
                let exe = msg["executable"].as_str().map(PathBuf::from);
                if tipo("test") {
                    variante.ejecutable = exe.or(variante.ejecutable.take());
                } else if tipo("bin") && msg["profile"]["test"] == false {
                    variante.demo = exe.or(variante.demo.take());
                }
            }
            Some("compiler-message") if msg["message"]["level"] == "error" => {
                let archivos = msg["message"]["spans"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|s| s["is_primary"] == true)
                    .filter_map(|s| s["file_name"].as_str().map(str::to_owned))
                    .collect();
                let texto = msg["message"]["rendered"].as_str().unwrap_or_default().to_owned();
                variante.errores.push(ErrorDeCompilacion { texto, archivos });
            }
            _ => {}
        }
    }
    let sin_nada: Vec<&String> =
        variantes.iter().filter(|(_, v)| v.ejecutable.is_none() && v.errores.is_empty()).map(|(p, _)| p).collect();
    if !sin_nada.is_empty() {
        return Err(format!(
            "cargo no compiló {sin_nada:?} ni dio errores:\n{}",
            String::from_utf8_lossy(&salida.stderr)
        ));
    }
    Ok(())
}

/// Los resultados de cada ejecución de pruebas, por ejecutable y pruebas.
type Resultados = BTreeMap<(PathBuf, Vec<String>), Result<Ejecucion, String>>;

/// Cuántas ejecuciones de pruebas van a la vez. Casi todo su tiempo es
/// esperar: las respuestas incorrectas que se cuelgan esperan a que salte la
/// red de seguridad de sus pruebas.
const A_LA_VEZ: usize = 6;

/// Ejecuta, varias a la vez, las pruebas de cada ejercicio con la solución,
/// con su código inicial y con cada respuesta incorrecta. Las de la
/// solución van primero y solas, para que nada les quite CPU; en las que
/// deben fallar, todas las pruebas corren a la vez (`--test-threads`), así
/// que las que se cuelgan esperan juntas.
/// La variante de tipo `tipo` del ejercicio `e` (o de su capítulo): las
/// variantes se guardan por su nombre de paquete.
fn variante<'a>(variantes: &'a BTreeMap<String, Variante>, e: &Ejercicio, tipo: &Tipo) -> Option<&'a Variante> {
    variantes.get(&nombre_paquete(e, tipo))
}

/// Con qué código inicial se prueba el ejercicio `i`: solo el suyo sobre la
/// solución (verificación completa) o, si no está, el del capítulo entero.
fn inicial_de<'a>(variantes: &'a BTreeMap<String, Variante>, e: &Ejercicio, i: usize) -> Option<&'a Variante> {
    variante(variantes, e, &Tipo::Mutante(i)).or_else(|| variante(variantes, e, &Tipo::Inicial))
}

fn ejecutar_todas(lista: &[Ejercicio], variantes: &BTreeMap<String, Variante>) -> Resultados {
    let solucion_de = |e: &Ejercicio| variante(variantes, e, &Tipo::Solucion);
    let mut deben_pasar = Vec::new();
    for e in lista {
        if let Some(v @ Variante { ejecutable: Some(exe), .. }) = solucion_de(e) {
            deben_pasar.push((exe.clone(), v.dir.clone(), e.pruebas.clone(), LIMITE));
        }
    }
    let mut resultados = en_paralelo(deben_pasar, A_LA_VEZ.min(2), false);
    let mut deben_fallar = Vec::new();
    for (i, e) in lista.iter().enumerate() {
        // Una respuesta incorrecta puede fallar o colgarse: las dos cosas la
        // rechazan. Si tarda el triple que la solución (y al menos 5 s), no
        // hace falta esperar a la red de seguridad de sus pruebas.
        let solucion = solucion_de(e)
            .and_then(|v| v.ejecutable.as_ref())
            .and_then(|exe| resultados.get(&(exe.clone(), e.pruebas.clone())))
            .and_then(|r| r.as_ref().ok())
            .map_or(LIMITE.as_secs_f64(), |r| r.segundos);
        let para_incorrectas = Duration::from_secs_f64((3.0 * solucion).clamp(5.0, LIMITE.as_secs_f64()));
        if let Some(v @ Variante { ejecutable: Some(exe), .. }) = inicial_de(variantes, e, i).filter(|_| !e.compilar) {
            deben_fallar.push((exe.clone(), v.dir.clone(), e.pruebas.clone(), LIMITE));
        }
        for incorrecta in &e.incorrectas {
            let tipo = Tipo::Incorrecta(i, incorrecta.clone());
            if let Some(v @ Variante { ejecutable: Some(exe), .. }) = variante(variantes, e, &tipo) {
                deben_fallar.push((exe.clone(), v.dir.clone(), e.pruebas.clone(), para_incorrectas));
            }
        }
    }
    resultados.extend(en_paralelo(deben_fallar, A_LA_VEZ, true));
    resultados
}

fn en_paralelo(
    trabajos: Vec<(PathBuf, PathBuf, Vec<String>, Duration)>,
    hilos: usize,
    todas_a_la_vez: bool,
) -> Resultados {
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
                    let r = correr_con_limite(exe, dir, &args, *limite);
                    hechos.lock().unwrap().insert((exe.clone(), nombres.clone()), r);
                }
            });
        }
    });
    hechos.into_inner().unwrap()
}

/// Lo que pasó al ejecutar unas pruebas.
#[derive(Debug, Clone)]
pub struct Ejecucion {
    pub pasan: bool,
    pub corridas: usize,
    pub colgada: bool,
    pub salida: String,
    /// Lo que tardó.
    pub segundos: f64,
}

/// Ejecuta un programa con un límite de tiempo y recoge su salida.
pub fn correr(exe: &Path, dir: &Path, args: &[String]) -> Result<Ejecucion, String> {
    correr_con_limite(exe, dir, args, LIMITE)
}

/// Como [`correr`], pero da la ejecución por colgada pasado `limite`.
fn correr_con_limite(exe: &Path, dir: &Path, args: &[String], limite: Duration) -> Result<Ejecucion, String> {
    let tmp =
        std::env::temp_dir().join(format!("curso-prueba-{}-{:?}", std::process::id(), std::thread::current().id()));
    let archivo = fs::File::create(&tmp).map_err(|e| e.to_string())?;
    let mut hijo = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .stdout(archivo.try_clone().map_err(|e| e.to_string())?)
        .stderr(archivo)
        .spawn()
        .map_err(|e| format!("no puedo ejecutar {}: {e}", exe.display()))?;
    let inicio = Instant::now();
    let (estado, colgada) = loop {
        if let Some(estado) = hijo.try_wait().map_err(|e| e.to_string())? {
            break (Some(estado), false);
        }
        if inicio.elapsed() > limite {
            let _ = hijo.kill();
            let _ = hijo.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let salida = fs::read_to_string(&tmp).unwrap_or_default();
    let _ = fs::remove_file(&tmp);
    let corridas =
        salida.lines().find_map(|l| l.strip_prefix("running ")?.split_whitespace().next()?.parse().ok()).unwrap_or(0);
    let segundos = inicio.elapsed().as_secs_f64();
    Ok(Ejecucion { pasan: estado.is_some_and(|e| e.success()), corridas, colgada, salida, segundos })
}

/// Los nombres de todas las pruebas de un ejecutable.
fn listar(exe: &Path, dir: &Path) -> Result<Vec<String>, String> {
    let salida = Command::new(exe)
        .args(["--list", "--format", "terse"])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("no puedo listar las pruebas de {}: {e}", exe.display()))?;
    Ok(String::from_utf8_lossy(&salida.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_owned)
        .collect())
}

fn comprobar_capitulo(
    lista: &[Ejercicio],
    capitulo: &str,
    variantes: &BTreeMap<String, Variante>,
    resultados: &Resultados,
    informe: &mut Informe,
) {
    // Las pruebas ya se ejecutaron todas, varias a la vez (`ejecutar_todas`).
    let resultado = |exe: &PathBuf, pruebas: &Vec<String>| {
        resultados
            .get(&(exe.clone(), pruebas.clone()))
            .cloned()
            .unwrap_or_else(|| Err(format!("no se ejecutaron las pruebas de {}", exe.display())))
    };
    let del_capitulo: Vec<(usize, &Ejercicio)> =
        lista.iter().enumerate().filter(|(_, e)| e.capitulo == capitulo).collect();
    let del_capitulo_de = |tipo: &Tipo| variante(variantes, del_capitulo[0].1, tipo);
    let problemas = &mut informe.problemas;

    // La solución compila (en la verificación completa; en la esencial no
    // hay variante de la solución y se listan las pruebas del inicial).
    let solucion = del_capitulo_de(&Tipo::Solucion);
    let exe_solucion = match solucion {
        Some(v) => match &v.ejecutable {
            Some(exe) => Some(exe),
            None => {
                let errores: Vec<&str> = v.errores.iter().map(|e| e.texto.as_str()).collect();
                problemas.push(format!("la solución de {capitulo} no compila:\n{}", errores.join("\n")));
                return;
            }
        },
        None => None,
    };
    // Las pruebas son exactamente las de la lista.
    let para_listar = solucion.or_else(|| del_capitulo_de(&Tipo::Inicial)).filter(|v| v.ejecutable.is_some());
    let listado = para_listar.map(|v| listar(v.ejecutable.as_ref().expect("filtrado"), &v.dir));
    match listado.unwrap_or_else(|| Ok(del_capitulo.iter().flat_map(|(_, e)| e.pruebas.clone()).collect())) {
        Ok(todas) => {
            for prueba in &todas {
                if !del_capitulo.iter().any(|(_, e)| e.pruebas.contains(prueba)) {
                    problemas.push(format!(
                        "la prueba «{prueba}» de {capitulo} no es de ningún ejercicio: añádela a su lista de pruebas"
                    ));
                }
            }
            for (_, e) in &del_capitulo {
                for prueba in e.pruebas.iter().filter(|p| !todas.contains(p)) {
                    problemas.push(format!("«{}»: la prueba «{prueba}» no existe", e.nombre));
                }
            }
        }
        Err(e) => problemas.push(e),
    }

    // La demo de la solución se ejecuta y termina bien.
    match solucion.map(|v| (&v.demo, &v.dir)) {
        None => {}
        Some((None, _)) => problemas.push(format!("solutions/{capitulo} no tiene demo: falta src/main.rs")),
        Some((Some(demo), dir)) => match correr(demo, dir, &[]) {
            Ok(r) if r.pasan && !r.salida.trim().is_empty() => {}
            Ok(r) => problemas.push(format!("`cargo run -p soluciones-{}` falla:\n{}", &capitulo[..2], r.salida)),
            Err(e) => problemas.push(e),
        },
    }

    // El inicial compila, salvo que tenga un ejercicio «haz que compile».
    let hay_de_compilar = del_capitulo.iter().any(|(_, e)| e.compilar);
    if let Some(inicial) = del_capitulo_de(&Tipo::Inicial) {
        match (inicial.ejecutable.is_some(), hay_de_compilar) {
            (false, false) => problemas.push(format!(
                "exercises/{capitulo} no compila y ningún ejercicio es «haz que compile»:\n{}",
                inicial.errores.first().map(|e| e.texto.as_str()).unwrap_or_default()
            )),
            (true, true) => {
                problemas.push(format!("exercises/{capitulo} compila, pero tiene un ejercicio «haz que compile»"))
            }
            _ => {}
        }
    }

    for &(i, e) in &del_capitulo {
        let n = &e.nombre;
        // La solución pasa las pruebas del ejercicio.
        match exe_solucion.map(|exe| resultado(exe, &e.pruebas)) {
            None => {}
            Some(Ok(r)) if r.pasan && r.corridas == e.pruebas.len() => {}
            Some(Ok(r)) => problemas.push(format!("«{n}»: la solución no pasa sus pruebas:\n{}", r.salida)),
            Some(Err(err)) => problemas.push(err),
        }
        // El código inicial de este ejercicio, solo él, hace fallar sus pruebas.
        let mutante = inicial_de(variantes, e, i);
        let mut linea = format!("{n}: ");
        // En la verificación esencial, el inicial es el del capítulo entero: si
        // no compila por otro ejercicio «haz que compile», las pruebas de este
        // no se pueden ejecutar. Su fallo propio lo demuestra la completa.
        let solo_el_capitulo = mutante.is_some_and(|v| v.tipo == Tipo::Inicial);
        match (mutante, e.compilar) {
            (Some(v), false) if solo_el_capitulo && v.ejecutable.is_none() && hay_de_compilar => {
                linea.push_str("el inicial del capítulo no compila (hay un «haz que compile»)");
            }
            (Some(v), true) => {
                let senala =
                    v.errores.iter().any(|err| err.archivos.iter().any(|a| Path::new(a).ends_with(&e.archivo)));
                if v.ejecutable.is_some() {
                    problemas.push(format!("«{n}» es «haz que compile», pero su código inicial compila"));
                } else if !senala {
                    problemas
                        .push(format!("«{n}»: el código inicial no compila, pero el error no está en {}", e.archivo));
                } else {
                    linea.push_str("el código inicial no compila");
                }
            }
            (Some(v), false) => match &v.ejecutable {
                None => problemas.push(format!(
                    "«{n}»: con su código inicial, el crate no compila:\n{}",
                    v.errores.first().map(|e| e.texto.as_str()).unwrap_or_default()
                )),
                Some(exe) => match resultado(exe, &e.pruebas) {
                    Ok(r) if r.colgada => {
                        problemas.push(format!("«{n}»: con el código inicial, sus pruebas se cuelgan"))
                    }
                    Ok(r) if r.pasan => {
                        problemas.push(format!("«{n}»: sus pruebas pasan con el código inicial; no pueden fallar"))
                    }
                    Ok(r) if r.corridas != e.pruebas.len() => problemas.push(format!(
                        "«{n}»: se esperaban {} pruebas y corrieron {}",
                        e.pruebas.len(),
                        r.corridas
                    )),
                    Ok(_) => linea.push_str("el código inicial falla sus pruebas"),
                    Err(err) => problemas.push(err),
                },
            },
            (None, _) => problemas.push(format!("«{n}»: falta su variante inicial")),
        }
        // Cada respuesta incorrecta conocida también falla.
        for incorrecta in &e.incorrectas {
            let tipo = Tipo::Incorrecta(i, incorrecta.clone());
            let Some(v) = variante(variantes, e, &tipo) else { continue };
            match &v.ejecutable {
                None => problemas
                    .push(format!("«{n}»: la respuesta incorrecta {incorrecta} ni compila; así no prueba nada")),
                Some(exe) => match resultado(exe, &e.pruebas) {
                    Ok(r) if r.pasan => problemas
                        .push(format!("«{n}»: la respuesta incorrecta {incorrecta} pasa las pruebas; faltan pruebas")),
                    Ok(_) => linea.push_str(&format!("; rechaza {incorrecta}")),
                    Err(err) => problemas.push(err),
                },
            }
        }
        informe.resumen.push(linea);
    }
}
