//! `cargo curso` probado como lo usaría alguien que aprende, sobre una copia
//! del espacio de trabajo (con su propio git), para no tocar el tuyo.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Copia el espacio de trabajo (sin target/, .git/ ni .curso/) y hace un commit.
fn copia() -> PathBuf {
    let destino = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("copia-del-curso");
    let _ = std::fs::remove_dir_all(&destino);
    copiar(&raiz(), &destino);
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(["-c", "user.name=curso", "-c", "user.email=curso@localhost"])
            .args(args)
            .current_dir(&destino)
            .stdout(Stdio::null())
            .status()
            .expect("hace falta git")
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "copia"]);
    destino
}

fn copiar(origen: &Path, destino: &Path) {
    std::fs::create_dir_all(destino).unwrap();
    for entrada in std::fs::read_dir(origen).unwrap().flatten() {
        let nombre = entrada.file_name();
        if ["target", ".git", ".curso"].iter().any(|n| nombre == *n) {
            continue;
        }
        if entrada.file_type().unwrap().is_dir() {
            copiar(&entrada.path(), &destino.join(&nombre));
        } else {
            std::fs::copy(entrada.path(), destino.join(&nombre)).unwrap();
        }
    }
}

fn curso(dir: &Path, args: &[&str], entrada: &str) -> Output {
    let mut hijo = Command::new(env!("CARGO_BIN_EXE_curso"))
        .args(args)
        .current_dir(dir)
        .env("CURSO_RAIZ", dir)
        // Reutiliza lo ya compilado por la verificación de los ejercicios.
        .env("CARGO_TARGET_DIR", raiz().join("target"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arranca curso");
    hijo.stdin.take().unwrap().write_all(entrada.as_bytes()).unwrap();
    hijo.wait_with_output().unwrap()
}

fn texto(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Una sola línea de error en español, código 2 o 1, sin pánico.
fn error_claro(o: &Output, contiene: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "debía fallar: {}", texto(o));
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(contiene), "esperaba «{contiene}» en: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn un_recorrido_completo_por_las_ordenes() {
    let dir = copia();
    let ej = dir.join("exercises/06-hilos-verdes/src/lanzable.rs");
    let sol = dir.join("solutions/06-hilos-verdes/src/lanzable.rs");
    let inicial = std::fs::read_to_string(&ej).unwrap();

    // lista: todo pendiente, con barra de progreso.
    let o = curso(&dir, &["lista"], "");
    assert!(o.status.success(), "{}", texto(&o));
    let t = texto(&o);
    assert!(t.contains("· pendiente") && t.contains("lanzable") && t.contains("Progreso: [----"), "{t}");

    // pista, y un nombre mal escrito.
    let o = curso(&dir, &["pista", "reparte"], "");
    assert!(o.status.success() && texto(&o).contains("Pista 1:"), "{}", texto(&o));
    error_claro(&curso(&dir, &["pista", "repartee"], ""), "¿quisiste decir «reparte»?");
    error_claro(&curso(&dir, &["verifica", "nada-parecido-xyz"], ""), "no hay ningún ejercicio");

    // verifica: el inicial de «lanzable» no compila, y se muestra el error entero.
    let o = curso(&dir, &["verifica", "lanzable"], "");
    error_claro(&o, "todavía no pasa");
    let t = texto(&o);
    assert!(t.contains("No compila") && t.contains("future cannot be sent between threads safely"), "{t}");

    // La solución de un ejercicio sin superar no se enseña sin pedirlo.
    error_claro(&curso(&dir, &["solucion", "lanzable"], ""), "--mostrar");
    let o = curso(&dir, &["solucion", "lanzable", "--mostrar"], "");
    assert!(o.status.success() && texto(&o).contains("solutions/06-hilos-verdes/src/lanzable.rs"));

    // Resuelto: pasa, queda hecho y ya se puede ver la solución.
    std::fs::copy(&sol, &ej).unwrap();
    let o = curso(&dir, &["verifica", "lanzable"], "");
    assert!(o.status.success(), "{}", texto(&o));
    assert!(texto(&o).contains("✔ Pasan sus 2 pruebas"), "{}", texto(&o));
    let t = texto(&curso(&dir, &["lista"], ""));
    assert!(t.contains("✔ hecho") && t.contains("] 1/"), "{t}");
    assert!(curso(&dir, &["solucion", "lanzable"], "").status.success());

    // Un archivo cambiado después de verificar ya no cuenta como hecho.
    std::fs::write(&ej, std::fs::read_to_string(&sol).unwrap() + "\n// otro cambio\n").unwrap();
    assert!(texto(&curso(&dir, &["lista"], "")).contains("? sin comprobar"));

    // reinicia: pregunta; si dices que no, nada cambia.
    let antes = std::fs::read_to_string(&ej).unwrap();
    let o = curso(&dir, &["reinicia", "lanzable"], "n\n");
    assert!(o.status.success() && texto(&o).contains("No he cambiado nada"));
    assert_eq!(std::fs::read_to_string(&ej).unwrap(), antes);
    // Si dices que sí, vuelve el inicial y tu versión queda guardada.
    let o = curso(&dir, &["reinicia", "lanzable"], "s\n");
    assert!(o.status.success(), "{}", texto(&o));
    assert_eq!(std::fs::read_to_string(&ej).unwrap(), inicial);
    let copias: Vec<_> = std::fs::read_dir(dir.join(".curso/copias")).unwrap().flatten().collect();
    assert_eq!(copias.len(), 1);
    assert_eq!(std::fs::read_to_string(copias[0].path()).unwrap(), antes);
    assert!(texto(&curso(&dir, &["lista"], "")).contains("· pendiente      lanzable"));

    // vigila en modo manual: prueba el siguiente pendiente, da una pista y sale.
    let o = curso(&dir, &["vigila", "--manual"], "p\nq\n");
    assert!(o.status.success(), "{}", texto(&o));
    let t = texto(&o);
    assert!(t.contains("Enter: volver a probar") && t.contains("Pista 1:"), "{t}");

    // Órdenes y opciones que no existen: una línea en español, código 2.
    let o = curso(&dir, &["nada"], "");
    error_claro(&o, "no es una orden");
    assert_eq!(o.status.code(), Some(2));
    let o = curso(&dir, &["verifica", "--rapido"], "");
    error_claro(&o, "opción desconocida «--rapido»");
    assert_eq!(o.status.code(), Some(2));
    let o = curso(&dir, &["mide", "--capitulo", "99"], "");
    error_claro(&o, "no hay ningún capítulo que empiece por «99»");
    let o = curso(&dir, &["mide", "--lento"], "");
    error_claro(&o, "opción desconocida «--lento»");
    assert_eq!(o.status.code(), Some(2));
}
