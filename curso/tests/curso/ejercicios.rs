//! Las listas de ejercicios, sin compilar nada: cada ejercicio tiene sus
//! archivos, sus pistas, sus propiedades (cada prueba comprueba alguna y
//! cada una la rompe una respuesta incorrecta conocida, bien escrita) y su
//! código inicial fijado.
//!
//! Que cada ejercicio se prueba a sí mismo (su código inicial falla sus
//! pruebas, la solución las pasa, cada respuesta incorrecta falla por la
//! propiedad que dice romper, y resuelto solo pasa) lo demuestra la
//! verificación completa, `cargo curso mantenimiento comprueba`, que la
//! integración continua ejecuta en su paso 4: compila más de trescientas
//! variantes y no cabe en el presupuesto de `cargo test`.

use std::path::PathBuf;

use curso::error::en_lista;
use curso::modelo::Grupo;
use curso::{Curso, Hallazgo};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn la_lista_de_ejercicios_es_valida() {
    let curso = Curso::cargar(&raiz()).expect("las listas exercises/NN-tema/ejercicios.toml deben leerse");
    let mut problemas = curso.validar();
    problemas.extend(curso.carpetas_sin_ejercicios());
    // Cada ejercicio tiene fijado su código inicial; en la integración
    // continua (clon limpio), los archivos deben ser exactamente esos.
    let hashes = curso.iniciales().expect("exercises/iniciales.toml");
    for e in &curso.ejercicios {
        if !hashes.contains_key(&e.nombre) {
            problemas.push(Hallazgo::de_ejercicio(
                &e.nombre,
                format!("«{}» no está en exercises/iniciales.toml: cargo curso mantenimiento fija-iniciales", e.nombre),
            ));
        } else if std::env::var_os("CI").is_some() && !curso.sin_tocar(e) {
            problemas.push(Hallazgo::de_ejercicio(
                &e.nombre,
                format!(
                    "el código inicial de «{}» cambió y exercises/iniciales.toml no: cargo curso mantenimiento \
                     fija-iniciales",
                    e.nombre
                ),
            ));
        }
    }
    assert!(problemas.is_empty(), "problemas en la lista:\n{}", en_lista(&problemas));
}

/// El modelo del curso casa con el disco: cada capítulo del libro tiene sus
/// tres crates con el nombre de paquete que calcula el modelo, y cada
/// ejercicio es de un capítulo del libro.
#[test]
fn el_modelo_casa_capitulos_crates_y_ejercicios() {
    let curso = Curso::cargar(&raiz()).unwrap();
    assert!(!curso.capitulos.is_empty());
    for c in &curso.capitulos {
        assert!(c.titulo.is_some() && c.minutos.is_some(), "{}: sin título o sin tiempo estimado", c.nombre);
        for grupo in Grupo::TODOS {
            let manifiesto = curso.ruta(c.carpeta(grupo)).join("Cargo.toml");
            let texto =
                std::fs::read_to_string(&manifiesto).unwrap_or_else(|e| panic!("{}: {e}", manifiesto.display()));
            let tabla: toml::Table = texto.parse().unwrap();
            let nombre = tabla["package"]["name"].as_str().unwrap();
            assert_eq!(nombre, c.paquete(grupo), "{}", manifiesto.display());
        }
    }
    for e in &curso.ejercicios {
        assert!(curso.capitulo(&e.capitulo).is_some(), "«{}»: el capítulo {} no está en book/", e.nombre, e.capitulo);
    }
}

/// Cada aserción de las pruebas de los ejercicios lleva su mensaje:
/// `cargo curso verifica` lo enseña primero, y sin él quien aprende solo ve
/// «los dos valores no coinciden» y dos números.
#[test]
fn cada_asercion_de_los_ejercicios_lleva_mensaje() {
    let hallazgos = curso::revision::aserciones::comprobar_pruebas(&raiz());
    assert!(
        hallazgos.is_empty(),
        "{} aserciones sin mensaje en las pruebas de los ejercicios:\n{}",
        hallazgos.len(),
        en_lista(&hallazgos)
    );
}
