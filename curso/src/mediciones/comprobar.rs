//! La comprobación de los registros contra la prosa del libro: cada número
//! con unidad de un capítulo está en su registro y cada valor del registro
//! sigue en la prosa; cada dato está bien formado, su orden mide con un
//! paquete del espacio de trabajo, su archivo y su máquina existen.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use super::registro::{self, Como, Dato, MAQUINAS, Maquina, RegistroDelCapitulo};
use super::valores::{cuantas_veces, unificar_espacios, valores_de_la_prosa};
use crate::error::{Hallazgo, Tipo};
use crate::modelo::{Curso, Grupo};

/// El paquete de una orden `cargo run ... -p PAQUETE ...`.
pub fn paquete_de(orden: &str) -> Option<&str> {
    let mut partes = orden.split_whitespace();
    while let Some(p) = partes.next() {
        if p == "--" {
            return None;
        }
        if p == "-p" || p == "--package" {
            return partes.next();
        }
    }
    None
}

/// Lo que hace falta para revisar un registro.
struct Contexto<'a> {
    raiz: &'a Path,
    paquetes: &'a [String],
    maquinas: Option<&'a BTreeMap<String, Maquina>>,
}

/// Comprueba los registros de `curso` contra la prosa de su libro.
/// `paquetes`: los nombres de los paquetes del espacio de trabajo.
pub fn comprobar(curso: &Curso, paquetes: &[String]) -> Vec<Hallazgo> {
    let mut hallazgos = Vec::new();
    let maquinas = match registro::maquinas(&curso.raiz) {
        Ok(m) => Some(m),
        Err(e) => {
            hallazgos.push(Hallazgo::en_archivo(MAQUINAS, None, Tipo::RegistroIlegible, e.to_string()));
            None
        }
    };
    let contexto = Contexto { raiz: &curso.raiz, paquetes, maquinas: maquinas.as_ref() };
    let mut todos = BTreeSet::new();
    for c in &curso.capitulos {
        let r = match registro::cargar_uno(&curso.raiz, c) {
            Ok(r) => r,
            Err(e) => {
                let ruta = c.carpeta(Grupo::Lecciones).join("mediciones.toml");
                hallazgos.push(Hallazgo::en_archivo(ruta, None, Tipo::RegistroIlegible, e.to_string()));
                continue;
            }
        };
        let registrados = comprobar_registro(&contexto, &r, &mut hallazgos);
        let texto = fs::read_to_string(curso.ruta(c.pagina())).unwrap_or_default();
        comprobar_prosa(&r, &texto, &registrados, &mut hallazgos);
        todos.extend(registrados);
    }
    comprobar_otras_paginas(curso, &todos, &mut hallazgos);
    for p in super::trazas::comprobar(curso) {
        hallazgos.push(Hallazgo::en_archivo(&p.archivo, None, Tipo::TrazaIncoherente, p.to_string()));
    }
    hallazgos
}

/// Revisa un registro por dentro. Devuelve sus valores, con los espacios unificados.
fn comprobar_registro(c: &Contexto, r: &RegistroDelCapitulo, h: &mut Vec<Hallazgo>) -> BTreeSet<String> {
    let ruta = r.ruta();
    let mut registrados = BTreeSet::new();
    for orden in &r.genera {
        h.extend(comprobar_orden(&ruta, orden, c.paquetes));
    }
    for mal in &r.mal_formados {
        h.push(Hallazgo::en_archivo(&ruta, None, Tipo::DatoMalFormado, format!("{ruta}: {}", mal.mensaje())));
        registrados.extend(mal.valores.iter().map(|v| unificar_espacios(v)));
    }
    for d in &r.datos {
        comprobar_dato(c, &ruta, d, h);
        for v in &d.valores {
            if !registrados.insert(unificar_espacios(v)) {
                let mensaje = format!("{ruta}: «{v}» está en dos datos; un valor, un significado");
                h.push(Hallazgo::en_archivo(&ruta, None, Tipo::ValorRepetido, mensaje));
            }
        }
    }
    for z in &r.razones {
        for v in [&z.mayor, &z.menor].into_iter().filter(|v| !r.es_medido(v)) {
            let mensaje = format!("{ruta}: la razón «{}» usa «{v}», que no es un valor medido de este registro", z.que);
            h.push(Hallazgo::en_archivo(&ruta, None, Tipo::RazonInvalida, mensaje));
        }
        if cuantas_veces(&z.mayor, &z.menor).is_none() {
            let mensaje = format!("{ruta}: no sé dividir «{}» entre «{}» (¿unidades distintas?)", z.mayor, z.menor);
            h.push(Hallazgo::en_archivo(&ruta, None, Tipo::RazonInvalida, mensaje));
        }
    }
    registrados
}

/// Lo que el tipo de un dato no puede decir: que sus textos no estén en
/// blanco, que su orden, su archivo y su máquina existan.
fn comprobar_dato(c: &Contexto, ruta: &str, d: &Dato, h: &mut Vec<Hallazgo>) {
    let nombre = d.nombre();
    let mut mal = |tipo, mensaje: String| h.push(Hallazgo::en_archivo(ruta, None, tipo, format!("{ruta}: {mensaje}")));
    let (campo, valor) = d.como.campo();
    if valor.trim().is_empty() {
        mal(Tipo::DatoMalFormado, format!("«{nombre}» es {} y necesita «{campo}»", d.como.tipo()));
    }
    if d.que.trim().is_empty() {
        mal(Tipo::DatoMalFormado, format!("«{nombre}» necesita «que»"));
    }
    match &d.como {
        Como::Medido { orden, .. } if !orden.trim().is_empty() => {
            if let Some(e) = comprobar_orden(ruta, orden, c.paquetes) {
                h.push(e);
            }
        }
        Como::Parametro { donde } => {
            let archivo = donde.split(':').next().unwrap_or_default();
            if !c.raiz.join(archivo).is_file() {
                mal(Tipo::ArchivoQueNoExiste, format!("«{nombre}»: el archivo «{archivo}» no existe"));
            }
        }
        _ => {}
    }
    if let (Some(m), Some(maquinas)) = (&d.maquina, c.maquinas)
        && !maquinas.contains_key(m)
    {
        h.push(Hallazgo::en_archivo(
            ruta,
            None,
            Tipo::MaquinaDesconocida,
            format!("{ruta}: «{nombre}»: la máquina «{m}» no está en {MAQUINAS}"),
        ));
    }
}

fn comprobar_orden(ruta: &str, orden: &str, paquetes: &[String]) -> Option<Hallazgo> {
    match paquete_de(orden) {
        Some(p) if orden.starts_with("cargo run ") && paquetes.iter().any(|x| x == p) => None,
        _ => Some(Hallazgo::en_archivo(
            ruta,
            None,
            Tipo::OrdenInvalida,
            format!(
                "{ruta}: la orden «{orden}» debe ser `cargo run ... -p PAQUETE` con un paquete del espacio de trabajo"
            ),
        )),
    }
}

/// La prosa del capítulo y su registro: ni un número sin registrar, ni un
/// valor registrado que la prosa ya no cite.
fn comprobar_prosa(r: &RegistroDelCapitulo, texto: &str, registrados: &BTreeSet<String>, h: &mut Vec<Hallazgo>) {
    let (ruta, pagina) = (r.ruta(), format!("book/{}.md", r.capitulo));
    let mut citados = BTreeSet::new();
    for (linea, valor) in valores_de_la_prosa(texto) {
        if !registrados.contains(&valor) {
            h.push(Hallazgo::en_archivo(
                &pagina,
                Some(linea),
                Tipo::ValorSinRegistrar,
                format!(
                    "{pagina}:{linea}: «{valor}» no está en {ruta}: di si está medido, citado, es un parámetro o una cuenta"
                ),
            ));
        }
        citados.insert(valor);
    }
    for v in registrados.difference(&citados) {
        let mensaje = format!("{ruta}: «{v}» ya no aparece en {pagina}; quítalo del registro");
        h.push(Hallazgo::en_archivo(&ruta, None, Tipo::ValorQueSobra, mensaje));
    }
}

/// Las demás páginas del libro solo citan valores que algún capítulo registra.
fn comprobar_otras_paginas(curso: &Curso, todos: &BTreeSet<String>, h: &mut Vec<Hallazgo>) {
    let capitulos: BTreeSet<String> = curso.capitulos.iter().map(|c| format!("{}.md", c.nombre)).collect();
    for entrada in fs::read_dir(curso.raiz.join("book")).into_iter().flatten().flatten() {
        let nombre = entrada.file_name().to_string_lossy().into_owned();
        if !nombre.ends_with(".md") || capitulos.contains(&nombre) {
            continue;
        }
        let texto = fs::read_to_string(entrada.path()).unwrap_or_default();
        let pagina = format!("book/{nombre}");
        for (linea, valor) in valores_de_la_prosa(&texto).into_iter().filter(|(_, v)| !todos.contains(v)) {
            let mensaje = format!("{pagina}:{linea}: «{valor}» no está en el registro de ningún capítulo");
            h.push(Hallazgo::en_archivo(&pagina, Some(linea), Tipo::ValorSinRegistrar, mensaje));
        }
    }
}
