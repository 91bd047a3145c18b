//! El registro de mediciones: la comprobación falla cuando debe, y la orden
//! de medida se ejecuta entera en modo rápido.

use std::fs;
use std::path::{Path, PathBuf};

use curso::hallazgo::Tipo;
use curso::{Curso, Hallazgo, Lugar};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Un curso mínimo: un capítulo, su lección y un registro.
fn curso_minimo(nombre: &str, prosa: &str, registro: &str) -> PathBuf {
    let r = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("registro-minimo").join(nombre);
    let _ = fs::remove_dir_all(&r);
    let escribe = |ruta: &str, texto: &str| {
        let p = r.join(ruta);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, texto).unwrap();
    };
    escribe("book/01-prueba.md", prosa);
    escribe("book/glosario.md", "# Glosario\n");
    escribe("lessons/01-prueba/Cargo.toml", "[package]\nname = \"leccion-01\"\n");
    escribe("lessons/01-prueba/src/main.rs", "fn main() {}\n");
    escribe("lessons/01-prueba/mediciones.toml", registro);
    escribe("exercises/ejercicios.toml", "ejercicio = []\n");
    escribe("curso/maquinas.toml", "");
    fs::copy(raiz().join("curso/maquinas.toml"), r.join("curso/maquinas.toml")).unwrap();
    r
}

fn problemas(r: &Path) -> Vec<Hallazgo> {
    let curso = Curso::cargar(r).expect("el curso mínimo se carga");
    curso::mediciones::comprobar(&curso, &curso::revision::paquetes(r))
}

/// Los hallazgos de una clase.
fn de_tipo(p: &[Hallazgo], tipo: Tipo) -> Vec<&Hallazgo> {
    p.iter().filter(|h| h.tipo == tipo).collect()
}

fn en(ruta: &str, linea: Option<usize>) -> Lugar {
    Lugar::Archivo { ruta: ruta.into(), linea }
}

const REGISTRO: &str = "lessons/01-prueba/mediciones.toml";

const PROSA: &str = "# Prueba\n\nCada espera dura 10 ms y la tarea ocupa 256 B.\n";

#[test]
fn un_numero_de_la_prosa_sin_registrar_es_un_problema() {
    let r = curso_minimo("sin-registro", PROSA, "");
    let p = problemas(&r);
    assert_eq!(p.len(), 2, "{p:#?}");
    assert_eq!((p[0].tipo, &p[0].lugar), (Tipo::ValorSinRegistrar, &en("book/01-prueba.md", Some(3))), "{p:#?}");
    assert!(p[0].mensaje.contains("«10 ms» no está en lessons/01-prueba/mediciones.toml"), "{p:#?}");
}

#[test]
fn con_todo_registrado_no_hay_problemas_y_lo_viejo_sobra() {
    let bien = r#"
[[dato]]
valores = ["10 ms"]
que = "La espera simulada"
tipo = "parametro"
donde = "lessons/01-prueba/src/main.rs"

[[dato]]
valores = ["256 B"]
que = "Memoria de una tarea"
tipo = "medido"
orden = "cargo run --release -p leccion-01"
"#;
    let r = curso_minimo("bien", PROSA, bien);
    assert_eq!(problemas(&r), []);

    // Si la prosa deja de citar un valor, el registro no puede guardarlo.
    fs::write(r.join("book/01-prueba.md"), "# Prueba\n\nCada espera dura 10 ms.\n").unwrap();
    let p = problemas(&r);
    assert!(p.len() == 1 && p[0].tipo == Tipo::ValorQueSobra && p[0].lugar == en(REGISTRO, None), "{p:#?}");
    assert!(p[0].mensaje.contains("«256 B» ya no aparece"), "{p:#?}");

    // Otras páginas solo citan valores registrados en algún capítulo.
    fs::write(r.join("book/glosario.md"), "# Glosario\n\nUnos 10 ms y 3 GiB.\n").unwrap();
    let p = problemas(&r);
    let sin_registrar = de_tipo(&p, Tipo::ValorSinRegistrar);
    assert_eq!(sin_registrar.len(), 1, "{p:#?}");
    assert_eq!(sin_registrar[0].lugar, en("book/glosario.md", Some(3)));
    assert!(sin_registrar[0].mensaje.contains("«3 GiB»"), "{p:#?}");
}

#[test]
fn cada_tipo_pide_su_campo_y_la_orden_su_paquete() {
    let mal = r#"
[[dato]]
valores = ["10 ms"]
que = "La espera"
tipo = "medido"
orden = "cargo run -p leccion-99"

[[dato]]
valores = ["256 B"]
que = "Memoria"
tipo = "citado"
"#;
    let p = problemas(&curso_minimo("mal", PROSA, mal));
    let orden = de_tipo(&p, Tipo::OrdenInvalida);
    assert!(orden.len() == 1 && orden[0].mensaje.contains("«cargo run -p leccion-99»"), "{p:#?}");
    let mal_formado = de_tipo(&p, Tipo::DatoMalFormado);
    assert_eq!(mal_formado.len(), 1, "{p:#?}");
    assert_eq!(mal_formado[0].lugar, en(REGISTRO, None));
    assert!(mal_formado[0].mensaje.contains("«256 B» es citado y necesita «referencia»"), "{p:#?}");
    let desconocido =
        "[[dato]]\nvalores = [\"10 ms\"]\nque = \"x\"\ntipo = \"parametro\"\ndonde = \"x\"\nfuenta = \"y\"\n";
    let p = problemas(&curso_minimo("desconocido", PROSA, desconocido));
    let mal_formado = de_tipo(&p, Tipo::DatoMalFormado);
    assert!(
        mal_formado.len() == 1 && mal_formado[0].mensaje.contains("el campo «fuenta» no existe"),
        "un campo mal escrito debe señalarse: {p:#?}"
    );
    let sin_tipo = "[[dato]]\nvalores = [\"10 ms\"]\nque = \"x\"\ntipo = \"medida\"\n";
    let p = problemas(&curso_minimo("sin-tipo", PROSA, sin_tipo));
    let mal_formado = de_tipo(&p, Tipo::DatoMalFormado);
    assert!(
        mal_formado.len() == 1
            && mal_formado[0].mensaje.contains("«10 ms» tiene tipo «medida»; usa medido, citado, parametro o calculo"),
        "{p:#?}"
    );
}

#[test]
fn la_pagina_de_mediciones_tiene_cada_capitulo_con_registro() {
    let curso = Curso::cargar(&raiz()).unwrap();
    let pagina = curso::mediciones::pagina(&curso).expect("la página se genera");
    for r in curso::mediciones::cargar(&curso).unwrap().iter().filter(|r| !r.datos.is_empty()) {
        assert!(pagina.contains(&format!("]({}.md)", r.capitulo)), "falta {} en la página", r.capitulo);
    }
    assert!(pagina.contains("## Las razones que importan"));
}

#[test]
fn la_pagina_de_mediciones_enlaza_cada_valor_citado_con_su_referencia() {
    let curso = Curso::cargar(&raiz()).unwrap();
    let pagina = curso::mediciones::pagina(&curso).expect("la página se genera");
    let mut citados = 0;
    for r in curso::mediciones::cargar(&curso).unwrap() {
        assert!(r.mal_formados.is_empty(), "{}: {:?}", r.ruta(), r.mal_formados);
        for d in &r.datos {
            let curso::mediciones::Como::Citado { referencia: id } = &d.como else { continue };
            let enlace = format!("](referencias.md#ref-{id})");
            assert!(
                pagina.contains(&enlace),
                "«{}» de {} no enlaza con su referencia {enlace}",
                d.valores[0],
                r.ruta()
            );
            citados += 1;
        }
    }
    assert!(citados > 0, "el libro debería citar algún valor");
    assert!(!pagina.contains("fuente del curso"), "la página no debe hablar de textos que quien lee no tiene");
}

#[test]
fn un_campo_que_ya_no_existe_es_un_problema() {
    // Los registros ya no guardan lo que afirmaba un texto que quien lee no tiene.
    let viejo = "[[dato]]\nvalores = [\"10 ms\"]\nque = \"x\"\ntipo = \"parametro\"\ndonde = \"x\"\nsemilla = \"y\"\n";
    let p = problemas(&curso_minimo("semilla", PROSA, viejo));
    assert!(de_tipo(&p, Tipo::DatoMalFormado).iter().any(|x| x.mensaje.contains("«semilla»")), "{p:#?}");
    let referencia_de_mas = "[[dato]]\nvalores = [\"10 ms\"]\nque = \"x\"\ntipo = \"parametro\"\n\
                             donde = \"lessons/01-prueba/src/main.rs\"\nreferencia = \"tokio-robo\"\n";
    let p = problemas(&curso_minimo("referencia-de-mas", PROSA, referencia_de_mas));
    let mal_formado = de_tipo(&p, Tipo::DatoMalFormado);
    assert!(
        mal_formado.len() == 1
            && mal_formado[0].mensaje.contains("«10 ms» no es citado; «referencia» es solo para lo citado"),
        "{p:#?}"
    );
}

// Que cada orden de medida del libro se ejecuta en modo rápido (y que cada
// `linea` del registro aparece en su salida) no se prueba aquí: compila otra
// vez Tokio con `--cfg tokio_unstable` y ejecuta más de treinta programas, y
// eso no cabe en los 4 minutos de `cargo test` en frío. Lo prueba
// `cargo curso mantenimiento mide --rapido`, que la integración continua
// ejecuta justo después de `cargo test` (`.ci/run`).

#[test]
fn una_razon_solo_compara_valores_medidos_de_la_misma_magnitud() {
    let registro = r#"
[[dato]]
valores = ["10 ms"]
que = "La espera simulada"
tipo = "parametro"
donde = "lessons/01-prueba/src/main.rs"

[[dato]]
valores = ["256 B"]
que = "Memoria de una tarea"
tipo = "medido"
orden = "cargo run --release -p leccion-01"

[[razon]]
que = "Una comparación sin sentido"
mayor = "10 ms"
menor = "256 B"
"#;
    let p = problemas(&curso_minimo("razon", PROSA, registro));
    let razon = de_tipo(&p, Tipo::RazonInvalida);
    assert_eq!(razon.len(), 2, "{p:#?}");
    assert!(razon[0].mensaje.contains("usa «10 ms», que no es un valor medido"), "{p:#?}");
    assert!(razon[1].mensaje.contains("no sé dividir «10 ms» entre «256 B»"), "{p:#?}");
}

/// Las gráficas del libro salen de los resultados guardados: dibujarlas de
/// nuevo desde `lessons/NN-tema/resultados/` da el mismo SVG, byte a byte.
/// Y cada SVG de `book/graficas/` tiene su programa.
#[test]
fn las_graficas_del_libro_salen_de_los_resultados_guardados() {
    let raiz = raiz();
    let destino = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("graficas");
    fs::create_dir_all(&destino).unwrap();
    let curso = Curso::cargar(&raiz).unwrap();
    let programas = curso::mediciones::programas_de_graficas(&curso);
    assert!(programas.len() >= 4, "faltan programas de gráficas: {programas:?}");
    let dibujadas = curso::mediciones::dibujar(&curso, Some(&destino), |_| {}).expect("las gráficas se dibujan");
    assert_eq!(dibujadas.len(), programas.len());
    for svg in &dibujadas {
        let nombre = svg.file_name().unwrap().to_string_lossy();
        let publicada = fs::read(raiz.join("book/graficas").join(&*nombre)).unwrap_or_default();
        assert!(
            fs::read(svg).unwrap() == publicada,
            "book/graficas/{nombre} no es lo que dibuja su programa con los resultados guardados: \
             ejecuta `cargo curso mantenimiento graficas` y guarda el resultado"
        );
    }
    for entrada in fs::read_dir(raiz.join("book/graficas")).unwrap().flatten() {
        let nombre = entrada.file_name().to_string_lossy().into_owned();
        let programa = format!("grafica-{}", nombre.trim_end_matches(".svg"));
        assert!(programas.iter().any(|(_, p)| *p == programa), "book/graficas/{nombre} no tiene programa {programa}");
    }
}

#[test]
fn un_registro_que_no_es_toml_se_senala_en_su_archivo() {
    let p = problemas(&curso_minimo("no-es-toml", PROSA, "[[dato]\nvalores = \n"));
    let ilegible = de_tipo(&p, Tipo::RegistroIlegible);
    assert_eq!(ilegible.len(), 1, "{p:#?}");
    assert_eq!(ilegible[0].lugar, en(REGISTRO, None));
}
