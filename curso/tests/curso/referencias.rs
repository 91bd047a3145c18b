//! Las referencias del libro: la comprobación falla cuando debe, con el
//! archivo y la línea, en un curso mínimo hecho a propósito; y el libro de
//! verdad la pasa.

use std::fs;
use std::path::{Path, PathBuf};

use curso::hallazgo::Tipo;
use curso::{Hallazgo, Lugar};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

const REFERENCIAS: &str = "# Referencias\n\n## Tokio\n\n\
                           ### 1. Tokio: la cola local {#ref-cola}\n\nCabe un número fijo de tareas.\n\n\
                           - [queue.rs](https://github.com/tokio-rs/tokio/blob/tokio-1.54.1/tokio/src/runtime/scheduler/multi_thread/queue.rs#L63)\n\n\
                           ### 2. Un artículo {#ref-articulo}\n\nDemuestra algo.\n\n\
                           - [doi:10.1145/324133.324234](https://doi.org/10.1145/324133.324234)\n";

const CAPITULO: &str = "# Prueba\n\nLa cola local tiene tope ([Tokio: la cola local](referencias.md#ref-cola)).\n";

const REGISTRO: &str = "[[dato]]\nvalores = [\"256 B\"]\nque = \"x\"\ntipo = \"citado\"\nreferencia = \"articulo\"\n";

/// Un curso mínimo: la página de referencias, un capítulo y un registro.
fn curso_minimo(nombre: &str, referencias: &str, capitulo: &str, registro: &str) -> PathBuf {
    let r = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("referencias-minimo").join(nombre);
    let _ = fs::remove_dir_all(&r);
    let escribe = |ruta: &str, texto: &str| {
        let p = r.join(ruta);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, texto).unwrap();
    };
    escribe("book/referencias.md", referencias);
    escribe("book/01-prueba.md", capitulo);
    escribe("lessons/01-prueba/mediciones.toml", registro);
    r
}

fn problemas(r: &Path) -> Vec<Hallazgo> {
    curso::referencias::comprobar(r)
}

/// ¿Hay un hallazgo de la clase `tipo` en `archivo:linea` cuyo mensaje diga `trozo`?
fn alguno(p: &[Hallazgo], tipo: Tipo, archivo: &str, linea: usize, trozo: &str) -> bool {
    let lugar = Lugar::Archivo { ruta: archivo.into(), linea: Some(linea) };
    p.iter().any(|h| h.tipo == tipo && h.lugar == lugar && h.mensaje.contains(trozo))
}

const CAP: &str = "book/01-prueba.md";
const REG: &str = "lessons/01-prueba/mediciones.toml";
const REFS: &str = "book/referencias.md";

#[test]
fn un_curso_bien_citado_no_tiene_problemas() {
    let r = curso_minimo("bien", REFERENCIAS, CAPITULO, REGISTRO);
    assert_eq!(problemas(&r), []);
}

#[test]
fn nombrar_un_archivo_de_fuera_es_un_problema() {
    let capitulo = format!("{CAPITULO}\nComo dice facts.md, nada.\nMira ../shared/reference/glosario.md.\n");
    let p = problemas(&curso_minimo("fuera", REFERENCIAS, &capitulo, REGISTRO));
    assert!(
        alguno(&p, Tipo::ArchivoDeFuera, CAP, 5, "«facts.md» nombra un archivo de fuera del repositorio"),
        "{p:#?}"
    );
    assert!(alguno(&p, Tipo::ArchivoDeFuera, CAP, 6, "«../shared» nombra un archivo de fuera"), "{p:#?}");

    let registro =
        REGISTRO.replace("referencia = \"articulo\"", "referencia = \"articulo\"\nque2 = \"facts.md, hecho 7\"");
    let p = problemas(&curso_minimo("fuera-registro", REFERENCIAS, CAPITULO, &registro));
    assert!(alguno(&p, Tipo::ArchivoDeFuera, REG, 6, "«facts.md»"), "{p:#?}");
}

#[test]
fn citar_un_texto_que_nadie_tiene_es_un_problema() {
    let capitulo = format!(
        "{CAPITULO}\nEs el hecho 7 de las referencias del curso.\n\
         La fuente de este capítulo dice otra cosa.\nEl texto del que parte el curso exagera.\n\
         El código fuente de Tokio, en cambio, se puede leer.\n"
    );
    let p = problemas(&curso_minimo("oculta", REFERENCIAS, &capitulo, REGISTRO));
    assert!(alguno(&p, Tipo::TextoOculto, CAP, 5, "«hecho 7» cita un texto que quien lee no tiene"), "{p:#?}");
    assert!(alguno(&p, Tipo::TextoOculto, CAP, 6, "«fuente de este capítulo»"), "{p:#?}");
    assert!(alguno(&p, Tipo::TextoOculto, CAP, 7, "«texto del que part»"), "{p:#?}");
    let linea_8 = Lugar::Archivo { ruta: CAP.into(), linea: Some(8) };
    assert!(!p.iter().any(|h| h.lugar == linea_8), "«código fuente» no es citar un texto oculto: {p:#?}");

    let registro = format!("{REGISTRO}semilla = \"lo que decía otro\"\n");
    let p = problemas(&curso_minimo("semilla", REFERENCIAS, CAPITULO, &registro));
    assert!(alguno(&p, Tipo::TextoOculto, REG, 6, "«semilla ="), "{p:#?}");
}

#[test]
fn el_codigo_que_el_libro_incluye_tampoco_cita_textos_ocultos() {
    let r = curso_minimo("codigo", REFERENCIAS, CAPITULO, REGISTRO);
    let codigo = "// ANCHOR: constantes\n/// Como en Tokio (hecho 1).\npub const N: usize = 256;\n\
                  /// Lee la fuente de datos; mira facts.md.\npub fn f() {}\n";
    for ruta in ["exercises/01-prueba/src/lib.rs", "solutions/01-prueba/src/lib.rs", "lessons/01-prueba/target/x.rs"] {
        let p = r.join(ruta);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, codigo).unwrap();
    }
    let p = problemas(&r);
    assert!(alguno(&p, Tipo::TextoOculto, "exercises/01-prueba/src/lib.rs", 2, "«hecho 1»"), "{p:#?}");
    assert!(alguno(&p, Tipo::ArchivoDeFuera, "solutions/01-prueba/src/lib.rs", 4, "«facts.md»"), "{p:#?}");
    assert_eq!(p.len(), 4, "«la fuente» en un comentario no cuenta, y target/ no se mira: {p:#?}");
}

#[test]
fn discutir_con_un_texto_sin_citarlo_es_un_problema() {
    // Un párrafo que responde a «la crítica» sin citarla, y una frase traducida de un original
    // inglés sin decir de dónde sale: los dos se ven, en su línea.
    let sin_cita = format!(
        "{CAPITULO}\nLa crítica dice que async es fácil\npero no simple.\n\n\
         Lo llama el «planificador humano en el bucle» (*human scheduler in the loop*).\n"
    );
    let p = problemas(&curso_minimo("discusion-sin-cita", REFERENCIAS, &sin_cita, REGISTRO));
    assert_eq!(p.len(), 2, "{p:#?}");
    assert!(alguno(&p, Tipo::DiscusionSinCita, CAP, 5, "«La crítica» responde a un texto sin decir cuál"), "{p:#?}");
    assert!(alguno(&p, Tipo::DiscusionSinCita, CAP, 8, "traduce una frase de un original inglés"), "{p:#?}");

    // Los mismos párrafos, cada uno con su cita (en cualquier línea del párrafo): nada que decir.
    let citado = format!(
        "{CAPITULO}\nLa crítica dice que async es fácil\npero no simple ([un artículo](referencias.md#ref-articulo)).\n\n\
         Lo llama el «planificador humano en el bucle» (*human scheduler in the loop*)\n\
         ([un artículo](referencias.md#ref-articulo)).\n"
    );
    assert_eq!(problemas(&curso_minimo("discusion-citada", REFERENCIAS, &citado, REGISTRO)), []);
}

#[test]
fn citar_una_entrada_que_no_existe_es_un_problema() {
    let capitulo = format!("{CAPITULO}\nVéase [otra](referencias.md#ref-no-existe) y [mal](referencias.md#cola).\n");
    let registro = REGISTRO.replace("\"articulo\"", "\"tampoco\"");
    let p = problemas(&curso_minimo("no-existe", REFERENCIAS, &capitulo, &registro));
    assert!(alguno(&p, Tipo::CitaRota, CAP, 5, "cita «no-existe», que no es ninguna entrada"), "{p:#?}");
    assert!(alguno(&p, Tipo::CitaRota, CAP, 5, "el enlace a referencias.md#cola no lleva a una entrada"), "{p:#?}");
    assert!(alguno(&p, Tipo::CitaRota, REG, 5, "cita «tampoco», que no es ninguna entrada"), "{p:#?}");
}

#[test]
fn una_entrada_que_nadie_cita_es_un_problema() {
    // El capítulo ya no cita la cola: solo la cita la propia página, que no cuenta.
    let referencias = format!("{REFERENCIAS}\nComo en [la cola](#ref-cola).\n");
    let p = problemas(&curso_minimo("sin-citar", &referencias, "# Prueba\n\nNada.\n", REGISTRO));
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        alguno(&p, Tipo::EntradaSinCitar, REFS, 5, "nadie cita la entrada «Tokio: la cola local» (ref-cola)"),
        "{p:#?}"
    );
}

#[test]
fn una_entrada_sin_enlace_https_fijado_o_sin_ancla_es_un_problema() {
    let referencias = REFERENCIAS.replace("https://doi.org", "http://doi.org")
        + "\n### 3. Sin enlaces {#ref-sin}\n\nSolo texto.\n\n### 4. Sin ancla\n\n- [x](https://x.example)\n"
        + "\n### 5. Sin versión {#ref-suelta}\n\n- [tokio](https://docs.rs/tokio/latest/tokio/)\n";
    let capitulo = format!("{CAPITULO}\n[sin](referencias.md#ref-sin) [suelta](referencias.md#ref-suelta)\n");
    let p = problemas(&curso_minimo("sin-https", &referencias, &capitulo, REGISTRO));
    let mal = Tipo::EntradaMalFormada;
    assert!(alguno(&p, mal, REFS, 15, "la entrada «Un artículo» enlaza con http://"), "{p:#?}");
    assert!(alguno(&p, mal, REFS, 11, "la entrada «Un artículo» no tiene ningún enlace https://"), "{p:#?}");
    assert!(alguno(&p, mal, REFS, 17, "la entrada «Sin enlaces» no tiene ningún enlace https://"), "{p:#?}");
    assert!(alguno(&p, mal, REFS, 21, "la entrada «4. Sin ancla» no tiene ancla"), "{p:#?}");
    let sin_version = "la entrada «Sin versión» enlaza con https://docs.rs/tokio/latest/tokio/, que no está fijado";
    assert!(alguno(&p, mal, REFS, 27, sin_version), "{p:#?}");
}

#[test]
fn el_libro_de_verdad_cita_bien_sus_referencias() {
    let p = problemas(&raiz());
    assert!(p.is_empty(), "problemas con las referencias:\n{}", curso::error::en_lista(&p));
}
