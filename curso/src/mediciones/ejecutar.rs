//! `cargo curso mantenimiento mide`: ejecuta, en orden, cada orden de medida
//! de los registros, guarda su salida y un resumen en JSON, y busca en la
//! salida la línea de cada dato medido.
//!
//! También lee lo que imprime cada orden como lo leería quien aprende: una
//! cantidad con punto decimal («135.2 ms») es un problema, porque el libro
//! escribe coma decimal («135,2 ms»; [`cantidades_con_punto`]). En modo
//! rápido se ejecutan además los programas de [`SOLO_EN_RAPIDO`], que
//! imprimen para quien aprende aunque no midan nada de la prosa.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::coma::punto_decimal;
use super::comprobar::paquete_de;
use super::registro::{self, Como, RegistroDelCapitulo};
use crate::error::{Error, Hallazgo, Tipo};
use crate::modelo::Curso;
use crate::procesos::cargo::Programas;
use crate::procesos::{Proceso, Salida};

/// Una orden de medida ejecutada.
#[derive(Debug, Serialize)]
pub struct OrdenEjecutada {
    pub capitulo: String,
    pub orden: String,
    pub ejecutada: String,
    pub segundos: f64,
    pub correcta: bool,
    pub salida: String,
}

/// Un dato medido, con la línea de la salida que lo da en esta máquina.
#[derive(Debug, Serialize)]
pub struct Lectura {
    pub capitulo: String,
    pub que: String,
    pub referencia: Vec<String>,
    pub orden: String,
    pub linea: Option<String>,
    pub aqui: Option<String>,
}

/// El resultado de [`medir`], que se guarda como `resultados.json`.
#[derive(Debug, Serialize)]
pub struct Resultados {
    pub modo: String,
    pub nucleos: usize,
    pub sistema: String,
    pub segundos: f64,
    pub ordenes: Vec<OrdenEjecutada>,
    pub datos: Vec<Lectura>,
    /// Órdenes que fallaron y líneas que no aparecieron.
    #[serde(serialize_with = "como_textos")]
    pub problemas: Vec<Hallazgo>,
}

fn como_textos<S: serde::Serializer>(hallazgos: &[Hallazgo], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(hallazgos.iter().map(ToString::to_string))
}

/// La orden tal como se ejecuta: `cargo run -q`, y en modo rápido sin
/// `--release` y con `--rapido` al final.
pub fn orden_ejecutable(orden: &str, rapido: bool) -> Vec<String> {
    let mut partes: Vec<String> = orden.split_whitespace().map(str::to_string).collect();
    if partes.len() >= 2 {
        partes.insert(2, "-q".into());
    }
    if rapido {
        let corte = partes.iter().position(|p| p == "--").unwrap_or(partes.len());
        partes = partes
            .iter()
            .enumerate()
            .filter(|(i, p)| !(*i < corte && p.as_str() == "--release"))
            .map(|(_, p)| p.clone())
            .collect();
        if !partes.iter().any(|p| p == "--") {
            partes.push("--".into());
        }
        partes.push("--rapido".into());
    }
    partes
}

/// Una orden por ejecutar, con el capítulo cuyo registro la nombra primero.
struct Pendiente {
    capitulo: String,
    orden: String,
}

/// Una orden ejecutada: las partes de la orden, su salida y lo que tardó.
type Hecha = (Vec<String>, Result<Salida, Error>, f64);

/// Programas de las lecciones que imprimen para quien aprende y que no
/// ejecuta ningún dato medido ni ningún `genera` de los registros: el modo
/// rápido los ejecuta también, solo para leer su salida. Cada uno, con el
/// capítulo al que pertenece. No están los que reescriben archivos del libro
/// o de `resultados/` (`grafica-*`, `trazas`, `traza-reproductor`,
/// `linea-de-tiempo`) ni los grabadores de trazas.
pub const SOLO_EN_RAPIDO: &[(&str, &str)] = &[
    ("04-maquina-de-estados", "cargo run -p leccion-04 --bin ejecutor"),
    ("09-tu-planificador", "cargo run --release -p leccion-09 --bin reparto"),
];

/// Cada orden de medida distinta de los registros, en orden: las de los
/// datos medidos y las de `genera`; en modo rápido, también las de
/// [`SOLO_EN_RAPIDO`] de esos capítulos.
fn ordenes_de(registros: &[RegistroDelCapitulo], rapido: bool) -> Vec<Pendiente> {
    let mut ordenes: Vec<Pendiente> = Vec::new();
    for r in registros {
        let extra = SOLO_EN_RAPIDO.iter().filter(|(c, _)| rapido && *c == r.capitulo).map(|(_, o)| *o);
        for o in r.datos.iter().filter_map(|d| d.orden()).chain(r.genera.iter().map(String::as_str)).chain(extra) {
            if !ordenes.iter().any(|x| x.orden == o) {
                ordenes.push(Pendiente { capitulo: r.capitulo.clone(), orden: o.to_string() });
            }
        }
    }
    ordenes
}

/// Compila de una vez todos los paquetes, para que el tiempo de cada orden
/// sea solo el suyo. En modo completo, en `--release`, los de las órdenes.
/// En modo rápido, los programas de todo el curso como los compila `cargo
/// test` ([`Programas`]): tras un `cargo test` no hay nada que compilar, y
/// cada orden sencilla ejecuta su programa sin pasar por cargo.
fn compilar(
    raiz: &Path,
    ordenes: &[Pendiente],
    rapido: bool,
    progreso: &mut impl FnMut(&str),
) -> Result<Option<Programas>, Error> {
    if rapido {
        progreso("compilando los programas del curso (como los compila cargo test)");
        return Programas::compilar(raiz).map(Some);
    }
    let paquetes: BTreeSet<&str> = ordenes.iter().filter_map(|p| paquete_de(&p.orden)).collect();
    let mut cargo = Proceso::cargo().args(["build", "-q", "--bins", "--release"]).en(raiz);
    for p in &paquetes {
        cargo = cargo.args(["-p", p]);
    }
    progreso(&format!("compilando {} lecciones (release)", paquetes.len()));
    if !cargo.estado()?.success() {
        return Err(Error::mensaje("no compilan las lecciones (mira los errores de arriba)"));
    }
    Ok(None)
}

/// `cargo run [-q] [--release] -p PAQUETE [--bin PROGRAMA] [-- ARGUMENTOS]`,
/// por partes: el paquete, el programa y los argumentos. `None` si la orden
/// lleva otras opciones de cargo (`--target-dir`, `--config`, `--features`):
/// esas se ejecutan con cargo.
fn programa_de(partes: &[String]) -> Option<(&str, Option<&str>, &[String])> {
    let [cargo, run, resto @ ..] = partes else { return None };
    if cargo != "cargo" || run != "run" {
        return None;
    }
    let (mut paquete, mut programa) = (None, None);
    let mut i = 0;
    while let Some(p) = resto.get(i) {
        match p.as_str() {
            "--" => return Some((paquete?, programa, &resto[i + 1..])),
            "-q" | "--release" => {}
            "-p" | "--package" => paquete = Some(resto.get(i + 1)?.as_str()),
            "--bin" => programa = Some(resto.get(i + 1)?.as_str()),
            _ => return None,
        }
        i += if matches!(p.as_str(), "-p" | "--package" | "--bin") { 2 } else { 1 };
    }
    Some((paquete?, programa, &[]))
}

fn ejecutar(raiz: &Path, orden: &str, rapido: bool, programas: Option<&Programas>) -> Hecha {
    let partes = orden_ejecutable(orden, rapido);
    let directo = programas.and_then(|ps| {
        let (paquete, programa, argumentos) = programa_de(&partes)?;
        Some(Proceso::programa(ps.ejecutable(paquete, programa)?).args(argumentos))
    });
    let t = Instant::now();
    let salida = directo.unwrap_or_else(|| Proceso::cargo().args(&partes[1..])).en(raiz).salida();
    (partes, salida, t.elapsed().as_secs_f64())
}

/// Ejecuta las órdenes. En modo completo, una tras otra: cada medida tiene la
/// máquina para ella sola. En modo rápido no se mide en serio: van de tres en
/// tres. Devuelve lo hecho en el orden de `ordenes`.
fn ejecutar_todas(
    raiz: &Path,
    ordenes: &[Pendiente],
    rapido: bool,
    programas: Option<&Programas>,
    progreso: &mut impl FnMut(&str),
) -> Vec<Hecha> {
    let total = ordenes.len();
    if !rapido {
        let mut hechas = Vec::new();
        for (i, p) in ordenes.iter().enumerate() {
            progreso(&format!("[{}/{total}] {}", i + 1, orden_ejecutable(&p.orden, rapido).join(" ")));
            hechas.push(ejecutar(raiz, &p.orden, rapido, programas));
        }
        return hechas;
    }
    let mut hechas = Vec::new();
    let (tx, rx) = std::sync::mpsc::channel();
    let siguiente = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            let (tx, siguiente) = (tx.clone(), &siguiente);
            s.spawn(move || {
                loop {
                    let i = siguiente.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(p) = ordenes.get(i) else { break };
                    let _ = tx.send((i, ejecutar(raiz, &p.orden, rapido, programas)));
                }
            });
        }
        drop(tx);
        for (n, (i, hecha)) in rx.iter().enumerate() {
            progreso(&format!("[{}/{total}] {}", n + 1, hecha.0.join(" ")));
            hechas.push((i, hecha));
        }
    });
    hechas.sort_by_key(|(i, _)| *i);
    hechas.into_iter().map(|(_, h)| h).collect()
}

/// Guarda la salida de cada orden en `carpeta` y la apunta en `resultados`.
/// Devuelve la salida de cada orden, por su orden.
fn guardar(
    raiz: &Path,
    carpeta: &Path,
    ordenes: &[Pendiente],
    hechas: Vec<Hecha>,
    resultados: &mut Resultados,
) -> Result<BTreeMap<String, String>, Error> {
    let mut salidas = BTreeMap::new();
    for (i, (p, (partes, salida, segundos))) in ordenes.iter().zip(hechas).enumerate() {
        let salida = salida?;
        let texto = format!("{}{}", salida.stdout(), salida.stderr());
        let archivo: PathBuf = carpeta.join(format!("{:02}-{}.txt", i + 1, paquete_de(&p.orden).unwrap_or("orden")));
        let relativa = archivo.strip_prefix(raiz).unwrap_or(&archivo).display().to_string();
        fs::write(&archivo, format!("$ {}\n{texto}", partes.join(" "))).map_err(|e| Error::escribir(&archivo, e))?;
        if !salida.exito() {
            let mensaje = format!("«{}» acabó con {}; mira {}", partes.join(" "), salida.estado, archivo.display());
            resultados.problemas.push(Hallazgo::en_archivo(&relativa, None, Tipo::OrdenInvalida, mensaje));
        }
        resultados.problemas.extend(punto_decimal(&partes.join(" "), &relativa, &texto));
        resultados.ordenes.push(OrdenEjecutada {
            capitulo: p.capitulo.clone(),
            orden: p.orden.clone(),
            ejecutada: partes.join(" "),
            segundos,
            correcta: salida.exito(),
            salida: relativa,
        });
        salidas.insert(p.orden.clone(), texto);
    }
    Ok(salidas)
}

/// Busca la línea de cada dato medido en la salida de su orden.
fn leer_datos(registros: &[RegistroDelCapitulo], salidas: &BTreeMap<String, String>, resultados: &mut Resultados) {
    for r in registros {
        for d in &r.datos {
            let Como::Medido { orden, linea } = &d.como else { continue };
            let aqui = linea.as_ref().and_then(|l| {
                let salida = salidas.get(orden)?;
                salida.lines().find(|x| x.contains(l.as_str())).map(|x| x.trim().to_string())
            });
            if let (Some(l), None) = (linea, &aqui) {
                let mensaje =
                    format!("{}: la salida de «{orden}» no tiene ninguna línea con «{l}» («{}»)", r.ruta(), d.nombre());
                resultados.problemas.push(Hallazgo::en_archivo(r.ruta(), None, Tipo::OrdenInvalida, mensaje));
            }
            resultados.datos.push(Lectura {
                capitulo: r.capitulo.clone(),
                que: d.que.clone(),
                referencia: d.valores.clone(),
                orden: orden.clone(),
                linea: linea.clone(),
                aqui,
            });
        }
    }
}

/// Ejecuta, en orden, cada orden de medida distinta de los registros (de
/// todos los capítulos, o de los que empiezan por `solo`), guarda la salida
/// de cada una y `resultados.json` en `target/mediciones/<modo>/`, y busca
/// en la salida la línea de cada dato medido.
pub fn medir(
    curso: &Curso,
    rapido: bool,
    solo: Option<&str>,
    mut progreso: impl FnMut(&str),
) -> Result<Resultados, Error> {
    let inicio = Instant::now();
    let raiz = curso.raiz.as_path();
    let modo = if rapido { "rapido" } else { "completo" };
    let mut registros = registro::cargar(curso)?;
    registros.retain(|r| solo.is_none_or(|s| r.capitulo.starts_with(s)));
    if registros.is_empty() {
        return Err(Error::mensaje(format!("no hay ningún capítulo que empiece por «{}»", solo.unwrap_or_default())));
    }
    let carpeta = raiz.join("target/mediciones").join(modo);
    let _ = fs::remove_dir_all(&carpeta);
    fs::create_dir_all(&carpeta).map_err(|e| Error::crear(&carpeta, e))?;
    let ordenes = ordenes_de(&registros, rapido);
    let programas = compilar(raiz, &ordenes, rapido, &mut progreso)?;
    let mut resultados = Resultados {
        modo: modo.into(),
        nucleos: std::thread::available_parallelism().map_or(1, |n| n.get()),
        sistema: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        segundos: 0.0,
        ordenes: Vec::new(),
        datos: Vec::new(),
        problemas: Vec::new(),
    };
    let hechas = ejecutar_todas(raiz, &ordenes, rapido, programas.as_ref(), &mut progreso);
    let salidas = guardar(raiz, &carpeta, &ordenes, hechas, &mut resultados)?;
    leer_datos(&registros, &salidas, &mut resultados);
    resultados.segundos = inicio.elapsed().as_secs_f64();
    let json = serde_json::to_string_pretty(&resultados).map_err(|e| Error::formato("resultados.json", e))?;
    let destino = carpeta.join("resultados.json");
    fs::write(&destino, json).map_err(|e| Error::escribir(&destino, e))?;
    Ok(resultados)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn una_orden_sencilla_se_ejecuta_sin_cargo_y_una_con_opciones_de_cargo_no() {
        let partes = |o: &str| orden_ejecutable(o, true);
        let p = partes("cargo run --release -p leccion-02 --bin eco -- --hilos 10");
        assert_eq!(
            programa_de(&p),
            Some(("leccion-02", Some("eco"), &["--hilos".to_string(), "10".into(), "--rapido".into()][..]))
        );
        let p = partes("cargo run -p leccion-06");
        assert_eq!(programa_de(&p), Some(("leccion-06", None, &["--rapido".to_string()][..])));
        let p = partes("cargo run -p leccion-08 --target-dir target/x -- --tareas 1");
        assert_eq!(programa_de(&p), None);
        assert_eq!(programa_de(&["cargo".into(), "test".into(), "-p".into(), "a".into()]), None);
    }

    #[test]
    fn la_orden_rapida_quita_release_y_anade_rapido() {
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-02 --bin eco -- --hilos 10", true).join(" "),
            "cargo run -q -p leccion-02 --bin eco -- --hilos 10 --rapido"
        );
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-06", true).join(" "),
            "cargo run -q -p leccion-06 -- --rapido"
        );
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-06", false).join(" "),
            "cargo run -q --release -p leccion-06"
        );
        assert_eq!(paquete_de("cargo run --release -p leccion-06 -- -p x"), Some("leccion-06"));
    }

    #[test]
    fn el_modo_rapido_ejecuta_tambien_los_programas_sin_datos() {
        let registro = |capitulo: &str, orden: &str| RegistroDelCapitulo {
            capitulo: capitulo.into(),
            titulo: capitulo.into(),
            genera: vec![orden.into()],
            datos: vec![],
            mal_formados: vec![],
            razones: vec![],
        };
        let registros = [
            registro("04-maquina-de-estados", "cargo run --release -p leccion-04 --bin tamanos"),
            registro("05-cuando-async", "cargo run --release -p leccion-05"),
        ];
        let de = |rapido| ordenes_de(&registros, rapido).into_iter().map(|p| p.orden).collect::<Vec<_>>();
        assert_eq!(de(false), ["cargo run --release -p leccion-04 --bin tamanos", "cargo run --release -p leccion-05"]);
        assert_eq!(
            de(true),
            [
                "cargo run --release -p leccion-04 --bin tamanos",
                "cargo run -p leccion-04 --bin ejecutor",
                "cargo run --release -p leccion-05"
            ]
        );
        for (capitulo, orden) in SOLO_EN_RAPIDO {
            let paquete = paquete_de(orden).expect("cada orden nombra su paquete");
            assert!(paquete.starts_with(&format!("leccion-{}", &capitulo[..2])), "{orden} no es de {capitulo}");
        }
    }
}
