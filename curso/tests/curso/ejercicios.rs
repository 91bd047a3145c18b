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

/// Un programa o una biblioteca con `test = false` en su `Cargo.toml` no
/// ejecuta sus pruebas unitarias: la revisión de capítulos avisa si tiene
/// alguna. Los programas declarados en `[[bin]]` que también están en
/// `src/` cuentan una sola vez (no piden `default-run`).
#[test]
fn una_prueba_unitaria_con_test_false_es_un_problema() {
    use curso::hallazgo::Tipo;
    let r = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prueba-que-no-corre");
    let _ = std::fs::remove_dir_all(&r);
    let escribe = |ruta: &str, texto: &str| {
        let p = r.join(ruta);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, texto).unwrap();
    };
    escribe("book/01-prueba.md", "# Prueba\n");
    escribe("book/glosario.md", "# Glosario\n");
    escribe("exercises/ejercicios.toml", "ejercicio = []\n");
    let manifiesto =
        "[package]\nname = \"leccion-01\"\n\n[[bin]]\nname = \"leccion-01\"\npath = \"src/main.rs\"\ntest = false\n";
    escribe("lessons/01-prueba/Cargo.toml", manifiesto);
    escribe("lessons/01-prueba/src/main.rs", "fn main() {}\n");
    let de_tipo = |tipo: Tipo| {
        let curso = curso::Curso::cargar(&r).expect("el curso mínimo se carga");
        let h = curso::revision::capitulos::comprobar_carpetas(&curso);
        h.into_iter().filter(|x| x.tipo == tipo).map(|x| x.to_string()).collect::<Vec<_>>()
    };
    assert!(de_tipo(Tipo::PruebaQueNoCorre).is_empty(), "sin pruebas unitarias no hay nada que avisar");
    assert!(de_tipo(Tipo::SinProgramaPorDefecto).is_empty(), "main.rs y su [[bin]] son un solo programa");
    escribe(
        "lessons/01-prueba/src/main.rs",
        "fn main() {}\n\n#[cfg(test)]\nmod pruebas {\n    #[test]\n    fn a() {}\n}\n",
    );
    let avisos = de_tipo(Tipo::PruebaQueNoCorre);
    assert!(
        avisos.len() == 1 && avisos[0].contains("src/main.rs") && avisos[0].contains("test = false"),
        "debía avisar de la prueba de src/main.rs: {avisos:?}"
    );
}
