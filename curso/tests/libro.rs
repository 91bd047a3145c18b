//! El libro se comprueba a sí mismo: se construye sin un solo ERROR ni aviso
//! de mdbook, sus fuentes pasan las comprobaciones y sus diagramas llegan al
//! HTML listos para dibujarse.

use std::path::PathBuf;

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn el_libro_se_construye_sin_errores_ni_avisos() {
    let destino = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libro-prueba");
    let hecho = curso::libro::construir(&raiz(), Some(&destino)).expect("el libro debe construirse");
    assert_eq!((hecho.errores, hecho.avisos), (0, 0), "mdbook registró errores o avisos (míralos arriba)");

    // Cada diagrama Mermaid llega como <pre class="mermaid"> y el JavaScript que lo dibuja, también.
    let mut con_diagramas = 0;
    for entrada in std::fs::read_dir(raiz().join("book")).unwrap().flatten() {
        let fuente = std::fs::read_to_string(entrada.path()).unwrap_or_default();
        let diagramas = fuente.matches("```mermaid").count();
        if diagramas == 0 || entrada.file_name() == "SUMMARY.md" {
            continue;
        }
        con_diagramas += 1;
        let html = entrada.path().with_extension("html");
        let html = destino.join(html.file_name().unwrap());
        let html = std::fs::read_to_string(&html).unwrap_or_else(|_| panic!("falta {}", html.display()));
        assert_eq!(html.matches("<pre class=\"mermaid\">").count(), diagramas, "{}", html.len());
        // mdbook añade un resumen al nombre: curso/mermaid/mermaid-<hash>.min.js
        assert!(html.contains("curso/mermaid/mermaid-") && html.contains("curso/mermaid/mermaid-init-"));
    }
    assert!(con_diagramas > 0, "el libro debería tener al menos un diagrama");
    let copiados: Vec<_> = std::fs::read_dir(destino.join("curso/mermaid")).unwrap().flatten().collect();
    assert_eq!(copiados.len(), 2, "mermaid.min.js y mermaid-init.js");
}

#[test]
fn las_fuentes_del_libro_pasan_las_comprobaciones() {
    let problemas = curso::comprobaciones::comprobar_libro(&raiz());
    assert!(problemas.is_empty(), "problemas en el libro:\n- {}", problemas.join("\n- "));
}

#[test]
fn los_enlaces_al_espacio_de_trabajo_van_al_repositorio() {
    let raiz = raiz();
    let texto = "Mira [la lección](../lessons/06-hilos-verdes/src/main.rs#L3) y [el glosario](glosario.md).";
    let nuevo = curso::libro::reescribir_enlaces(texto, &raiz.join("book"), &raiz, "https://github.com/a/b");
    assert_eq!(
        nuevo,
        "Mira [la lección](https://github.com/a/b/blob/main/lessons/06-hilos-verdes/src/main.rs#L3) y [el glosario](glosario.md)."
    );
    let carpeta = curso::libro::reescribir_enlaces(
        "[x](../lessons/06-hilos-verdes/)",
        &raiz.join("book"),
        &raiz,
        "https://g/a/b",
    );
    assert_eq!(carpeta, "[x](https://g/a/b/tree/main/lessons/06-hilos-verdes/)");
}

#[test]
fn los_recursos_de_mermaid_son_los_de_la_version_fijada() {
    // Los archivos del repositorio son copia exacta de los que trae mdbook-mermaid 0.17.1.
    let vendidos = raiz().join("curso/mermaid/mermaid-init.js");
    let texto = std::fs::read_to_string(vendidos).unwrap();
    assert!(texto.contains("mermaid.initialize"), "mermaid-init.js no parece el de mdbook-mermaid");
    let config = std::fs::read_to_string(raiz().join("book.toml")).unwrap();
    assert!(config.contains("curso/mermaid/mermaid.min.js"));
}

#[test]
fn los_enlaces_del_html_construido_resuelven_con_sus_anclas() {
    let destino = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libro-enlaces");
    let hecho = curso::libro::construir(&raiz(), Some(&destino)).expect("el libro debe construirse");
    assert_eq!(hecho.errores, 0);
    let problemas = curso::comprobaciones::comprobar_html(&destino, &raiz(), curso::libro::REPOSITORIO_POR_DEFECTO);
    assert!(problemas.is_empty(), "enlaces rotos:\n- {}", problemas.join("\n- "));
}
