//! Las respuestas de los cuestionarios del libro (`book/cuestionarios/*.toml`)
//! se comprueban con los propios programas: cada opción de una pregunta
//! «¿qué imprime?», «¿compila?» o «¿termina?» afirma algo del programa (que
//! imprime tal salida, que no compila con tal error, que no termina), y la
//! prueba mira si es verdad. Falla si una opción marcada como correcta es
//! falsa, o si una marcada como incorrecta es verdad.
//!
//! - Lo que no compila es un caso de `no-compila/tests/ui/`: su `.stderr`
//!   fijado dice el error, y la prueba de `no-compila` comprueba que ese es
//!   el error real del compilador.
//! - Lo que compila se ejecuta (dos veces) con el binario de este paquete.
//!   Un programa que no acaba en [`LIMITE`] «no termina»; si la respuesta
//!   fijada dice que sí termina, se le da otra oportunidad con
//!   [`LIMITE_HOLGADO`] antes de fallar, para que una máquina cargada no
//!   cambie el veredicto.
//! - Un programa con hilos cuyo nombre acaba en `_entrelazados` puede
//!   imprimir cosas distintas en cada ejecución. Sus salidas posibles salen
//!   de recorrer con shuttle todas sus planificaciones (`check_dfs`), con el
//!   mismo código (build.rs cambia `std::thread` y `std::sync` por los de
//!   shuttle); lo que imprime de verdad debe ser una de ellas. Los demás
//!   deben imprimir siempre lo mismo: por eso usan el *runtime* de un hilo y
//!   el reloj en pausa.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// Lo que imprimen los programas con shuttle, en la planificación en curso.
static SALIDA: Mutex<String> = Mutex::new(String::new());

/// Dentro de los programas que recorre shuttle, `println!` escribe en
/// [`SALIDA`] en lugar de en la salida estándar.
macro_rules! println {
    ($($t:tt)*) => {{
        let mut salida = crate::SALIDA.lock().unwrap_or_else(|e| e.into_inner());
        salida.push_str(&format!($($t)*));
        salida.push('\n');
    }};
}

mod entrelazados {
    include!(concat!(env!("OUT_DIR"), "/entrelazados.rs"));
}

/// Lo que espera a un programa antes de decir que no termina.
const LIMITE: Duration = Duration::from_secs(2);
/// La segunda oportunidad de un programa que debería terminar.
const LIMITE_HOLGADO: Duration = Duration::from_secs(120);

#[derive(Deserialize)]
struct Cuestionario {
    pregunta: Vec<Pregunta>,
}

/// Lo que esta prueba necesita de una pregunta (el resto lo revisa `curso`
/// al construir el libro).
#[derive(Deserialize)]
struct Pregunta {
    id: String,
    tipo: String,
    programa: Option<String>,
    #[serde(default)]
    opcion: Vec<Opcion>,
}

/// Lo que afirma una opción sobre el programa de su pregunta.
#[derive(Deserialize)]
struct Opcion {
    #[serde(default)]
    correcta: bool,
    /// Termina normalmente (o con pánico, si `panico = true`) y esta es
    /// una de sus salidas posibles.
    salida: Option<String>,
    /// Compila o no compila.
    compila: Option<bool>,
    /// No compila, con un error cuya primera línea contiene esto.
    error: Option<String>,
    /// Compila y termina, o no termina, dentro del límite.
    termina: Option<bool>,
    /// Termina con un pánico (o sin él).
    panico: Option<bool>,
    /// Lo que imprime cambia de una ejecución a otra (tiene más de una salida posible).
    varia: Option<bool>,
}

/// Lo que hace de verdad un programa.
#[derive(Debug, Clone)]
enum Conducta {
    NoCompila { error: String },
    Termina { salidas: BTreeSet<String>, panico: bool },
    NoTermina,
}

fn raiz() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("la raíz del repositorio").to_path_buf()
}

/// Los cuestionarios del libro, por archivo.
fn cuestionarios() -> Vec<(String, Cuestionario)> {
    let carpeta = raiz().join("book/cuestionarios");
    let mut v: Vec<(String, Cuestionario)> = std::fs::read_dir(&carpeta)
        .unwrap_or_else(|e| panic!("no puedo leer {}: {e}", carpeta.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let texto = std::fs::read_to_string(&p).expect("se lee");
            let nombre = format!("book/cuestionarios/{}", p.file_name().unwrap().to_string_lossy());
            let leido = toml::from_str(&texto).unwrap_or_else(|e| panic!("{nombre} no se puede leer: {e}"));
            (nombre, leido)
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(v.len() >= 19, "faltan cuestionarios en {}: hay {}", carpeta.display(), v.len());
    v
}

/// `cuestionarios/programas/06-x/y.rs` → `06-x/y`, el nombre en el binario.
fn nombre_en_el_binario(programa: &str) -> Option<&str> {
    programa.strip_prefix("cuestionarios/programas/")?.strip_suffix(".rs")
}

/// Ejecuta un programa del binario con un límite: `Some((salida, pánico))`
/// si terminó, `None` si no.
fn ejecutar(nombre: &str, limite: Duration) -> Option<(String, bool)> {
    let mut hijo = Command::new(env!("CARGO_BIN_EXE_cuestionarios"))
        .arg(nombre)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("no puedo arrancar el binario de los cuestionarios");
    let leer = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut texto = String::new();
            let _ = r.read_to_string(&mut texto);
            texto
        })
    };
    let salida = leer(Box::new(hijo.stdout.take().expect("stdout")));
    let errores = leer(Box::new(hijo.stderr.take().expect("stderr")));
    let inicio = Instant::now();
    let estado = loop {
        if let Some(estado) = hijo.try_wait().expect("try_wait") {
            break Some(estado);
        }
        if inicio.elapsed() > limite {
            let _ = hijo.kill();
            let _ = hijo.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (salida, errores) = (salida.join().unwrap(), errores.join().unwrap());
    let estado = estado?;
    // Un pánico sale con 101; cualquier otra cosa distinta de 0 es un
    // programa roto, no una respuesta.
    let panico = estado.code() == Some(101);
    assert!(
        estado.success() || panico,
        "el programa «{nombre}» acabó con {estado}, ni bien ni con un pánico:\n{errores}"
    );
    assert!(!panico || errores.contains("panicked"), "«{nombre}» salió con 101 sin un pánico:\n{errores}");
    Some((salida, panico))
}

/// Cuántas planificaciones puede recorrer shuttle para un programa: más
/// serían demasiadas para `cargo test`, y el programa debe ser más pequeño.
const PLANIFICACIONES_MAXIMAS: usize = 20_000;

/// Las salidas posibles de un programa con hilos: todas sus planificaciones,
/// recorridas en profundidad con shuttle (`check_dfs`, exhaustivo), y cuántas son.
fn salidas_con_shuttle(nombre: &str, programa: fn()) -> BTreeSet<String> {
    static VISTAS: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    static PROGRAMA: Mutex<Option<fn()>> = Mutex::new(None);
    static VUELTAS: Mutex<usize> = Mutex::new(0);
    VISTAS.lock().unwrap().clear();
    *VUELTAS.lock().unwrap() = 0;
    *PROGRAMA.lock().unwrap() = Some(programa);
    shuttle::check_dfs(
        || {
            SALIDA.lock().unwrap().clear();
            let programa = PROGRAMA.lock().unwrap().expect("programa");
            programa();
            let salida = std::mem::take(&mut *SALIDA.lock().unwrap());
            VISTAS.lock().unwrap().insert(salida);
            *VUELTAS.lock().unwrap() += 1;
        },
        Some(PLANIFICACIONES_MAXIMAS),
    );
    let vueltas = *VUELTAS.lock().unwrap();
    assert!(
        vueltas < PLANIFICACIONES_MAXIMAS,
        "{nombre}: shuttle no acabó de recorrer sus planificaciones en {PLANIFICACIONES_MAXIMAS}: \
         haz el programa más pequeño (menos hilos, menos candados) para que la prueba sea exhaustiva"
    );
    eprintln!("{nombre}: {vueltas} planificaciones recorridas con shuttle");
    std::mem::take(&mut *VISTAS.lock().unwrap())
}

/// Lo que hace de verdad cada programa de los cuestionarios.
fn conductas(programas: &BTreeSet<String>, terminan_segun_la_clave: &BTreeSet<String>) -> BTreeMap<String, Conducta> {
    let mut conductas = BTreeMap::new();
    let mut por_ejecutar = Vec::new();
    for programa in programas {
        if programa.starts_with("no-compila/tests/ui/") {
            let stderr = raiz().join(programa).with_extension("stderr");
            let texto = std::fs::read_to_string(&stderr)
                .unwrap_or_else(|e| panic!("{programa} no tiene su error fijado ({}): {e}", stderr.display()));
            let error = texto.lines().find(|l| l.starts_with("error")).expect("una línea de error").to_string();
            conductas.insert(programa.clone(), Conducta::NoCompila { error });
        } else {
            por_ejecutar.push(programa.clone());
        }
    }
    // Cuatro a la vez: los que no terminan solo esperan. Los que la clave
    // dice que no terminan (solo para el orden, no para el veredicto) van
    // primero, para que su espera se solape con el resto.
    por_ejecutar.sort_by_key(|p| terminan_segun_la_clave.contains(p));
    por_ejecutar.reverse();
    let pendientes = Mutex::new(por_ejecutar);
    let hechas = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    // El candado, solo para sacar el siguiente (no durante toda la vuelta).
                    let siguiente = pendientes.lock().unwrap().pop();
                    let Some(programa) = siguiente else { break };
                    let nombre = nombre_en_el_binario(&programa)
                        .unwrap_or_else(|| panic!("«{programa}» no es cuestionarios/programas/NN-tema/X.rs"));
                    let mut primera = ejecutar(nombre, LIMITE);
                    if primera.is_none() && terminan_segun_la_clave.contains(&programa) {
                        primera = ejecutar(nombre, LIMITE_HOLGADO);
                    }
                    let conducta = match primera {
                        None => Conducta::NoTermina,
                        Some((salida, panico)) => {
                            let otra = ejecutar(nombre, LIMITE_HOLGADO);
                            let mut salidas = BTreeSet::from([salida]);
                            salidas.extend(otra.map(|(s, _)| s));
                            Conducta::Termina { salidas, panico }
                        }
                    };
                    hechas.lock().unwrap().push((programa, conducta));
                }
            });
        }
    });
    for (programa, conducta) in hechas.into_inner().unwrap() {
        let conducta = match (conducta, con_shuttle(&programa)) {
            (Conducta::Termina { salidas, panico }, Some(programa_con_shuttle)) => {
                let posibles = salidas_con_shuttle(&programa, programa_con_shuttle);
                let imposibles: Vec<_> = salidas.difference(&posibles).collect();
                assert!(
                    imposibles.is_empty(),
                    "{programa} imprimió {imposibles:?}, que shuttle no encuentra entre sus salidas posibles \
                     {posibles:?}: ¿el programa con shuttle no es el mismo?"
                );
                Conducta::Termina { salidas: posibles, panico }
            }
            (Conducta::Termina { salidas, .. }, None) if salidas.len() > 1 => panic!(
                "{programa} imprimió cosas distintas en dos ejecuciones: {salidas:?}. Si depende de cómo se \
                 planifiquen sus hilos, llámalo *_entrelazados.rs para que shuttle recorra todas las \
                 planificaciones; si no, hazlo determinista (runtime de un hilo, reloj en pausa, select! con biased)"
            ),
            (otra, _) => otra,
        };
        conductas.insert(programa, conducta);
    }
    conductas
}

/// La versión con shuttle de un programa `*_entrelazados.rs`.
fn con_shuttle(programa: &str) -> Option<fn()> {
    let nombre = nombre_en_el_binario(programa)?;
    entrelazados::ENTRELAZADOS.iter().find(|(n, _)| *n == nombre).map(|(_, f)| *f)
}

/// Una salida sin los finales de línea del final (los de TOML y los de `println!`).
fn normalizar(s: &str) -> String {
    s.trim_end().to_string()
}

/// ¿Es verdad lo que afirma la opción? `Err` si no afirma nada comprobable.
fn es_verdad(o: &Opcion, c: &Conducta) -> Result<bool, &'static str> {
    let compila = !matches!(c, Conducta::NoCompila { .. });
    let panico_real = matches!(c, Conducta::Termina { panico: true, .. });
    let panico_ok = |afirmado: Option<bool>| afirmado.is_none_or(|p| p == panico_real);
    if let Some(s) = &o.salida {
        return Ok(match c {
            Conducta::Termina { salidas, panico } => {
                salidas.iter().any(|x| normalizar(x) == normalizar(s)) && o.panico.unwrap_or(false) == *panico
            }
            _ => false,
        });
    }
    if let Some(termina) = o.termina {
        let termina_de_verdad = matches!(c, Conducta::Termina { .. });
        return Ok(compila && termina_de_verdad == termina && panico_ok(o.panico));
    }
    if o.compila == Some(false) || o.error.is_some() {
        return Ok(match c {
            Conducta::NoCompila { error } => o.error.as_ref().is_none_or(|e| error.contains(e.as_str())),
            _ => false,
        });
    }
    if o.panico.is_some() {
        return Ok(matches!(c, Conducta::Termina { .. }) && panico_ok(o.panico));
    }
    if let Some(varia) = o.varia {
        return Ok(matches!(c, Conducta::Termina { salidas, .. } if (salidas.len() > 1) == varia));
    }
    if o.compila == Some(true) {
        return Ok(compila);
    }
    Err("no afirma nada que se pueda comprobar (salida, compila, error, termina, panico o varia)")
}

/// Cómo se describe una conducta en un mensaje.
fn describir(c: &Conducta) -> String {
    match c {
        Conducta::NoCompila { error } => format!("no compila: {error}"),
        Conducta::NoTermina => format!("no termina en {} s", LIMITE.as_secs()),
        Conducta::Termina { salidas, panico } => {
            let salidas: Vec<String> = salidas.iter().map(|s| format!("«{}»", normalizar(s))).collect();
            let como = if *panico { "termina con un pánico" } else { "termina" };
            format!("{como} e imprime {}", salidas.join(" o "))
        }
    }
}

#[test]
fn cada_respuesta_fijada_es_lo_que_hace_el_programa() {
    let cuestionarios = cuestionarios();
    let mut programas = BTreeSet::new();
    let mut terminan = BTreeSet::new();
    for (_, c) in &cuestionarios {
        for p in &c.pregunta {
            if let Some(programa) = &p.programa {
                programas.insert(programa.clone());
                if p.opcion.iter().any(|o| o.correcta && (o.salida.is_some() || o.termina == Some(true))) {
                    terminan.insert(programa.clone());
                }
            }
        }
    }
    assert!(!programas.is_empty(), "ningún cuestionario tiene programas");
    let conductas = conductas(&programas, &terminan);

    let mut problemas = Vec::new();
    let mut comprobadas = 0;
    for (archivo, c) in &cuestionarios {
        for p in &c.pregunta {
            let Some(programa) = &p.programa else { continue };
            let conducta = &conductas[programa];
            for (i, o) in p.opcion.iter().enumerate() {
                let donde = format!("{archivo}, pregunta «{}», opción {}", p.id, i + 1);
                match es_verdad(o, conducta) {
                    Err(por_que) => problemas.push(format!("{donde}: {por_que}")),
                    Ok(verdad) if verdad != o.correcta => problemas.push(format!(
                        "{donde}: está marcada como {}, pero es {}: el programa {} ({programa})",
                        if o.correcta { "correcta" } else { "incorrecta" },
                        if verdad { "verdad" } else { "falsa" },
                        describir(conducta)
                    )),
                    Ok(_) => comprobadas += 1,
                }
            }
            // En «¿qué imprime?», cada salida posible tiene su opción: la clave está completa.
            if let (Conducta::Termina { salidas, panico: false }, "imprime") = (conducta, p.tipo.as_str()) {
                for s in salidas {
                    if !p.opcion.iter().any(|o| o.salida.as_deref().is_some_and(|x| normalizar(x) == normalizar(s))) {
                        problemas.push(format!(
                            "{archivo}, pregunta «{}»: el programa puede imprimir «{}» y ninguna opción lo dice",
                            p.id,
                            normalizar(s)
                        ));
                    }
                }
            }
        }
    }
    assert!(problemas.is_empty(), "respuestas fijadas que no son verdad:\n- {}", problemas.join("\n- "));
    eprintln!("{comprobadas} opciones de {} programas comprobadas contra lo que hacen de verdad", programas.len());
}

/// Cada programa de `programas/` es de alguna pregunta, y cada pregunta de
/// un programa nombra uno que existe.
#[test]
fn cada_programa_es_de_una_pregunta() {
    let salida = Command::new(env!("CARGO_BIN_EXE_cuestionarios")).arg("--lista").output().expect("--lista");
    let en_el_binario: BTreeSet<String> = String::from_utf8(salida.stdout).unwrap().lines().map(String::from).collect();
    let mut usados = BTreeSet::new();
    let mut problemas = Vec::new();
    for (archivo, c) in cuestionarios() {
        for p in &c.pregunta {
            let Some(programa) = &p.programa else { continue };
            match nombre_en_el_binario(programa) {
                Some(nombre) if en_el_binario.contains(nombre) => {
                    usados.insert(nombre.to_string());
                }
                Some(_) => problemas.push(format!("{archivo}, «{}»: {programa} no existe", p.id)),
                None if programa.starts_with("no-compila/tests/ui/") && raiz().join(programa).is_file() => {}
                None => problemas.push(format!(
                    "{archivo}, «{}»: {programa} debe ser cuestionarios/programas/NN-tema/X.rs o un caso de \
                     no-compila/tests/ui/",
                    p.id
                )),
            }
        }
    }
    for sobra in en_el_binario.difference(&usados) {
        problemas.push(format!("cuestionarios/programas/{sobra}.rs no es de ninguna pregunta"));
    }
    assert!(problemas.is_empty(), "{}", problemas.join("\n"));
}

/// Un nombre que no existe: mensaje claro en español y salida 2, sin pánico.
#[test]
fn un_nombre_desconocido_da_un_error_claro() {
    let salida = Command::new(env!("CARGO_BIN_EXE_cuestionarios")).arg("no-existe").output().expect("se ejecuta");
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8_lossy(&salida.stderr);
    assert!(error.contains("no hay ningún programa") && !error.contains("panicked"), "{error}");
}
