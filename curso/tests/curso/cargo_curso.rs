//! `cargo curso` probado como lo usaría alguien que aprende, sobre copias
//! del espacio de trabajo (con su propio git), para no tocar el tuyo.
//!
//! Las copias empiezan siempre con el código inicial de cada ejercicio
//! (sacado de git por su hash), así que estas pruebas pasan igual con
//! cualquier mezcla de ejercicios resueltos y sin resolver en tu copia.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use curso::modelo::{Ejercicio, ejercicios};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Copia el espacio de trabajo (sin target/, .git/, .curso/ ni mis-copias/)
/// en una carpeta propia de la prueba, pone el código inicial de cada
/// ejercicio y hace un commit.
fn copia(nombre: &str) -> PathBuf {
    let destino = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(nombre);
    let _ = std::fs::remove_dir_all(&destino);
    copiar(&raiz(), &destino);
    version_propia(&destino, nombre);
    let original = curso::Curso::cargar(&raiz()).unwrap();
    for e in &original.ejercicios {
        let inicial = original.contenido_inicial(e).expect("el código inicial, de git");
        std::fs::write(destino.join(e.carpeta()).join(&e.archivo), inicial).unwrap();
    }
    git(&destino, &["init", "-q"]);
    git(&destino, &["add", "-A"]);
    git(&destino, &["commit", "-q", "-m", "copia"]);
    destino
}

/// Cargo distingue los artefactos de un paquete local por su nombre, su
/// versión y su ruta relativa a la raíz del espacio de trabajo. La copia
/// tiene las mismas rutas relativas que el original y comparte su `target/`:
/// con la misma versión, cada uno usaría lo que compiló el otro (y tu
/// `cargo test -p ejercicios-06` podría ejecutar el código de la copia).
/// Cada copia lleva su propia versión.
fn version_propia(dir: &Path, nombre: &str) {
    // Los paquetes del espacio de trabajo: las carpetas de arriba con su
    // Cargo.toml (la herramienta, los crates compartidos) y las de lessons/,
    // exercises/ y solutions/.
    let mut manifiestos = Vec::new();
    for arriba in std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()) {
        manifiestos.push(arriba.join("Cargo.toml"));
        if ["lessons", "exercises", "solutions"].iter().any(|g| arriba.ends_with(g)) {
            manifiestos.extend(std::fs::read_dir(&arriba).unwrap().flatten().map(|e| e.path().join("Cargo.toml")));
        }
    }
    for m in manifiestos.into_iter().filter(|m| m.is_file()) {
        let texto = std::fs::read_to_string(&m).unwrap();
        let nuevo = texto.replacen("\nversion = \"0.1.0\"\n", &format!("\nversion = \"0.1.0-{nombre}\"\n"), 1);
        assert_ne!(texto, nuevo, "{} no tiene `version = \"0.1.0\"`", m.display());
        std::fs::write(&m, nuevo).unwrap();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=curso", "-c", "user.email=curso@localhost"])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .expect("hace falta git")
        .success();
    assert!(ok, "git {args:?}");
}

fn copiar(origen: &Path, destino: &Path) {
    const FUERA: [&str; 5] = ["target", ".git", ".curso", "mis-copias", "node_modules"];
    let recorrido = walkdir::WalkDir::new(origen).into_iter();
    for entrada in recorrido.filter_entry(|e| !FUERA.iter().any(|n| e.file_name() == *n)) {
        let entrada = entrada.unwrap();
        let copia = destino.join(entrada.path().strip_prefix(origen).unwrap());
        if entrada.file_type().is_dir() {
            std::fs::create_dir_all(&copia).unwrap();
        } else {
            std::fs::copy(entrada.path(), &copia).unwrap();
        }
    }
}

fn lista() -> Vec<Ejercicio> {
    ejercicios::leer(&raiz()).unwrap()
}

fn orden(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_curso"));
    c.args(args)
        .current_dir(dir)
        .env("CURSO_RAIZ", dir)
        .env_remove("CI")
        // Reutiliza lo ya compilado (las dependencias) por el resto de pruebas.
        .env("CARGO_TARGET_DIR", raiz().join("target"));
    c
}

fn curso(dir: &Path, args: &[&str], entrada: &str) -> Output {
    let mut hijo =
        orden(dir, args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    hijo.stdin.take().unwrap().write_all(entrada.as_bytes()).unwrap();
    let o = hijo.wait_with_output().unwrap();
    // Lo que escribe cualquier orden de quien aprende, en todas las pruebas.
    sin_punto_decimal(&args.join(" "), &texto(&o));
    o
}

fn texto(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Una línea de error en español, código distinto de 0, sin pánico.
fn error_claro(o: &Output, contiene: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "debía fallar: {}", texto(o));
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(contiene), "esperaba «{contiene}» en: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Ningún número que lea quien aprende lleva punto decimal («4.0 s»): el
/// curso escribe «4,0 s». Lo decide la misma función que usa `mide --rapido`
/// con las lecciones y la verificación con las demos de las soluciones.
fn sin_punto_decimal(orden: &str, t: &str) {
    let lineas = curso::mediciones::coma::cantidades_con_punto(t);
    assert!(lineas.is_empty(), "`cargo curso {orden}` escribe cantidades con punto decimal: {lineas:?}\n{t}");
}

fn resolver(dir: &Path, e: &Ejercicio) {
    std::fs::copy(dir.join(e.carpeta_solucion()).join(&e.archivo), dir.join(e.carpeta()).join(&e.archivo)).unwrap();
}

#[test]
fn un_recorrido_completo_por_las_ordenes() {
    let dir = copia("copia-recorrido");
    let ej = dir.join("exercises/06-hilos-verdes/src/lanzable.rs");
    let sol = dir.join("solutions/06-hilos-verdes/src/lanzable.rs");
    let inicial = std::fs::read_to_string(&ej).unwrap();

    // lista: todo pendiente, con barra de progreso.
    let o = curso(&dir, &["lista"], "");
    assert!(o.status.success(), "{}", texto(&o));
    let t = texto(&o);
    assert!(t.contains("· pendiente") && t.contains("lanzable") && t.contains("Progreso: [----"), "{t}");

    // pista: una cada vez, de menos a más, y recuerda cuál viste; --todas las da todas.
    let o = curso(&dir, &["pista", "reparte"], "");
    assert!(o.status.success() && texto(&o).contains("Pista 1 de 2:"), "{}", texto(&o));
    assert!(texto(&o).contains("queda 1") && !texto(&o).contains("Pista 2"), "{}", texto(&o));
    let t = texto(&curso(&dir, &["pista", "reparte"], ""));
    assert!(t.contains("Pista 2 de 2:") && t.contains("Era la última") && !t.contains("Pista 1"), "{t}");
    let t = texto(&curso(&dir, &["pista", "reparte"], ""));
    assert!(t.contains("ya la habías visto") && t.contains("--todas"), "{t}");
    let t = texto(&curso(&dir, &["pista", "reparte", "--todas"], ""));
    assert!(t.contains("Pista 1 de 2:") && t.contains("Pista 2 de 2:"), "{t}");
    error_claro(&curso(&dir, &["pista", "repartee"], ""), "¿quisiste decir «reparte»?");
    error_claro(&curso(&dir, &["verifica", "nada-parecido-xyz"], ""), "no hay ningún ejercicio");

    // verifica: el inicial de «lanzable» no compila, y se muestra el error,
    // con la primera pista.
    let o = curso(&dir, &["verifica", "lanzable"], "");
    error_claro(&o, "todavía no pasa");
    let t = texto(&o);
    assert!(t.contains("No compila") && t.contains("future cannot be sent between threads safely"), "{t}");
    assert!(t.contains("Pista: ") && t.contains("¿Otra pista? cargo curso pista lanzable"), "{t}");
    // «reparte», con «lanzable» sin resolver: el error es del otro, y lo dice primero.
    let t = texto(&curso(&dir, &["verifica", "reparte"], ""));
    assert!(t.contains("el error está en el archivo de otro ejercicio: «lanzable»"), "{t}");

    // La solución de un ejercicio sin superar no se enseña sin pedirlo.
    error_claro(&curso(&dir, &["solucion", "lanzable"], ""), "--mostrar");
    let o = curso(&dir, &["solucion", "lanzable", "--mostrar"], "");
    assert!(o.status.success() && texto(&o).contains("solutions/06-hilos-verdes/src/lanzable.rs"));

    // Resuelto: pasa, queda hecho, el siguiente es el de su capítulo y ya se
    // puede ver la solución.
    std::fs::copy(&sol, &ej).unwrap();
    let o = curso(&dir, &["verifica", "lanzable"], "");
    assert!(o.status.success(), "{}", texto(&o));
    assert!(texto(&o).contains("✔ Pasan sus"), "{}", texto(&o));
    assert!(texto(&o).contains("Siguiente, en este capítulo: «reparte»"), "{}", texto(&o));
    let t = texto(&curso(&dir, &["lista"], ""));
    assert!(t.contains("✔ hecho") && t.contains("] 1/"), "{t}");
    assert!(t.contains("reparte") && t.lines().any(|l| l.contains("reparte") && l.contains("← siguiente")), "{t}");
    assert!(curso(&dir, &["solucion", "lanzable"], "").status.success());

    // Una respuesta incorrecta típica (multiplicar en u32): la pantalla cabe
    // en una terminal y empieza por el mensaje del curso, no por mil pánicos.
    let reparte = dir.join("exercises/06-hilos-verdes/src/reparte.rs");
    let bien = std::fs::read_to_string(dir.join("solutions/06-hilos-verdes/src/reparte.rs")).unwrap();
    std::fs::write(&reparte, bien.replace("u64::from(i) * u64::from(i)", "(i * i) as u64")).unwrap();
    let o = curso(&dir, &["verifica", "reparte"], "");
    error_claro(&o, "todavía no pasa");
    let t = texto(&o);
    assert!(t.lines().count() <= 40, "la pantalla tiene {} líneas:\n{t}", t.lines().count());
    let curso_dice = t.find("i * i no cabe en u32").unwrap_or_else(|| panic!("falta el mensaje del curso:\n{t}"));
    let panico = t.find("desbordamiento al multiplicar").unwrap_or_else(|| panic!("falta el pánico:\n{t}"));
    assert!(curso_dice < panico, "el mensaje del curso debe ir antes que el pánico:\n{t}");
    assert!(t.contains("✘ Falla 1 de ") && t.contains(" veces)"), "{t}");
    assert!(dir.join(".curso/ultima-verificacion.txt").is_file());
    std::fs::write(&reparte, &bien).unwrap();

    // Un archivo cambiado después de verificar ya no cuenta como hecho.
    std::fs::write(&ej, std::fs::read_to_string(&sol).unwrap() + "\n// otro cambio\n").unwrap();
    assert!(texto(&curso(&dir, &["lista"], "")).contains("? sin comprobar"));

    // reinicia: pregunta; si dices que no, nada cambia.
    let antes = std::fs::read_to_string(&ej).unwrap();
    let o = curso(&dir, &["reinicia", "lanzable"], "n\n");
    assert!(o.status.success() && texto(&o).contains("No he cambiado nada"));
    assert_eq!(std::fs::read_to_string(&ej).unwrap(), antes);
    // Si dices que sí, vuelve el inicial y tu versión queda guardada en mis-copias/,
    // aparte del progreso: borrar .curso/ no la toca.
    let o = curso(&dir, &["reinicia", "lanzable"], "s\n");
    assert!(o.status.success(), "{}", texto(&o));
    assert_eq!(std::fs::read_to_string(&ej).unwrap(), inicial);
    std::fs::remove_dir_all(dir.join(".curso")).unwrap();
    let copias: Vec<_> = std::fs::read_dir(dir.join("mis-copias")).unwrap().flatten().collect();
    assert_eq!(copias.len(), 1);
    // Con la fecha y la hora, no con segundos desde 1970: lanzable-2026-12-02-1735.rs
    let nombre = copias[0].file_name().to_string_lossy().into_owned();
    let fecha = regex::Regex::new(r"^lanzable-\d{4}-\d{2}-\d{2}-\d{4}(\d{2})?\.rs$").unwrap();
    assert!(fecha.is_match(&nombre), "{nombre}");
    assert_eq!(std::fs::read_to_string(copias[0].path()).unwrap(), antes);
    assert!(texto(&curso(&dir, &["lista"], "")).contains("· pendiente      lanzable"));

    // vigila en modo manual: prueba el ejercicio que le dices, da una pista y sale.
    let o = curso(&dir, &["vigila", "reparte", "--manual"], "p\nq\n");
    assert!(o.status.success(), "{}", texto(&o));
    let t = texto(&o);
    assert!(t.contains("Vigilando «reparte»") && t.contains("Enter: volver a probar") && t.contains("Pista "), "{t}");
}

#[test]
fn la_linea_de_ordenes_habla_en_espanol_y_separa_los_dos_publicos() {
    let dir = raiz();
    // La ayuda de quien aprende no lista las órdenes de mantenimiento.
    for args in [&["--help"][..], &["help"], &["ayuda"]] {
        let o = curso(&dir, args, "");
        assert!(o.status.success(), "{args:?}: {}", texto(&o));
        let t = texto(&o);
        assert!(t.contains("Órdenes:") && t.contains("verifica") && t.contains("mantenimiento --help"), "{t}");
        for mantener in ["comprueba", "navegador", "ortografia", "fija-iniciales", "graficas"] {
            assert!(!t.contains(mantener), "«{mantener}» en la ayuda de quien aprende:\n{t}");
        }
    }
    let o = curso(&dir, &["mantenimiento", "--help"], "");
    assert!(o.status.success() && texto(&o).contains("fija-iniciales"), "{}", texto(&o));
    for args in [&["ayuda", "verifica"][..], &["verifica", "--help"], &["mantenimiento", "mide", "--help"]] {
        let t = texto(&curso(&dir, args, ""));
        assert!(t.contains("Uso: cargo curso"), "{t}");
        for ingles in ["Usage", "Arguments", "Options", "OPTIONS", "Print help", "default:"] {
            assert!(!t.contains(ingles), "{args:?} dice «{ingles}»:\n{t}");
        }
    }
    // Órdenes, opciones y argumentos que sobran: una línea en español, código 2.
    let o = curso(&dir, &["nada"], "");
    error_claro(&o, "no es una orden");
    assert_eq!(o.status.code(), Some(2));
    let o = curso(&dir, &["verifica", "--rapido"], "");
    error_claro(&o, "opción desconocida «--rapido»");
    assert_eq!(o.status.code(), Some(2));
    let o = curso(&dir, &["lista", "aforo"], "");
    error_claro(&o, "sobra el argumento «aforo»");
    assert_eq!(o.status.code(), Some(2));
    error_claro(&curso(&dir, &["ayuda", "nada"], ""), "no es una orden");
    let o = curso(&dir, &["mantenimiento", "mide", "--rapido", "--capitulo", "99"], "");
    error_claro(&o, "no hay ningún capítulo que empiece por «99»");
    let o = curso(&dir, &["mantenimiento", "mide", "--lento"], "");
    error_claro(&o, "opción desconocida «--lento»");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn fija_iniciales_no_pisa_tu_trabajo_y_dice_que_cambia() {
    let dir = copia("copia-fija-iniciales");
    let e = lista().into_iter().find(|e| e.nombre == "tramos").unwrap();
    let iniciales = std::fs::read_to_string(dir.join(curso::iniciales::INICIALES)).unwrap();
    // Sin cambios: pregunta, y con «no» no toca nada.
    let o = curso(&dir, &["mantenimiento", "fija-iniciales"], "n\n");
    assert!(o.status.success() && texto(&o).contains("No he cambiado nada"), "{}", texto(&o));
    // Con un ejercicio resuelto (distinto de HEAD): se niega y nombra el archivo.
    resolver(&dir, &e);
    let o = curso(&dir, &["mantenimiento", "fija-iniciales", "--si"], "");
    error_claro(&o, "--forzar");
    assert!(texto(&o).contains("casi-todo-es-esperar/src/tramos.rs"), "{}", texto(&o));
    assert_eq!(std::fs::read_to_string(dir.join(curso::iniciales::INICIALES)).unwrap(), iniciales);
    // Forzado y confirmado: dice qué ejercicio cambió.
    let o = curso(&dir, &["mantenimiento", "fija-iniciales", "--forzar", "--si"], "");
    assert!(o.status.success(), "{}", texto(&o));
    assert!(texto(&o).contains("de 1: tramos"), "{}", texto(&o));
    assert_ne!(std::fs::read_to_string(dir.join(curso::iniciales::INICIALES)).unwrap(), iniciales);
}

/// Lee la salida de un proceso línea a línea, con un límite de espera.
struct Lector(mpsc::Receiver<String>);

impl Lector {
    fn de(hijo: &mut Child) -> Lector {
        let (tx, rx) = mpsc::channel();
        let salida = hijo.stdout.take().unwrap();
        std::thread::spawn(move || {
            for linea in BufReader::new(salida).lines().map_while(Result::ok) {
                if tx.send(linea).is_err() {
                    return;
                }
            }
        });
        Lector(rx)
    }
    /// Espera una línea que contenga `texto` (red de seguridad: `limite`).
    fn espera(&self, texto: &str, limite: Duration) -> Vec<String> {
        let mut vistas = Vec::new();
        let fin = std::time::Instant::now() + limite;
        loop {
            let queda = fin.saturating_duration_since(std::time::Instant::now());
            match self.0.recv_timeout(queda) {
                Ok(l) if l.contains(texto) => return vistas,
                Ok(l) => vistas.push(l),
                Err(_) => panic!("vigila no escribió «{texto}» en {limite:?}; escribió:\n{}", vistas.join("\n")),
            }
        }
    }
}

#[test]
fn vigila_sigue_sin_terminal_y_vuelve_a_probar_al_guardar() {
    let dir = copia("copia-vigila");
    let e = lista().into_iter().find(|e| e.nombre == "tramos").unwrap();
    let mut hijo = orden(&dir, &["vigila", "tramos"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lector = Lector::de(&mut hijo);
    let limite = Duration::from_secs(240);
    lector.espera("Vigilando «tramos»", limite);
    lector.espera("Guarda el archivo para volver a probar", limite);
    // Sin terminal (entrada cerrada), sigue vigilando.
    std::thread::sleep(Duration::from_millis(500));
    assert!(hijo.try_wait().unwrap().is_none(), "vigila terminó sin que nadie lo parara");
    // Guardar la solución vuelve a probar, la da por superada y dice a qué
    // ejercicio de su capítulo pasa antes de pasar.
    resolver(&dir, &e);
    lector.espera("Siguiente, en este capítulo: «aforo»", limite);
    lector.espera("Sigo vigilando ahora «aforo»: abre exercises/01-casi-todo-es-esperar/src/aforo.rs", limite);
    assert!(hijo.try_wait().unwrap().is_none(), "vigila terminó al superar un ejercicio");
    hijo.kill().unwrap();
    hijo.wait().unwrap();
}

#[test]
fn con_todo_resuelto_nada_se_rompe() {
    let dir = copia("copia-todo-resuelto");
    let lista = lista();
    for e in &lista {
        resolver(&dir, e);
    }
    // Lo que de `cargo test` lee exercises/: la lista, el libro (incluye código
    // de los ejercicios) y sus comprobaciones. La verificación toma los
    // iniciales de git por su hash, y lo demás no lee exercises/.
    let problemas = ejercicios::validar(&dir, &lista);
    assert!(problemas.is_empty(), "{problemas:?}");
    let destino = dir.join("target/libro");
    let hecho = curso::libro::construir(&dir, Some(&destino)).expect("el libro se construye");
    assert_eq!(hecho.errores + hecho.avisos, 0, "el libro, con todo resuelto, tiene errores o avisos");
    let problemas = curso::revision::comprobar_libro(&curso::Curso::cargar(&dir).unwrap());
    assert!(
        problemas.is_empty(),
        "comprobaciones del libro con todo resuelto:\n{}",
        curso::error::en_lista(&problemas)
    );
}

/// `verifica --todos` compila los ejercicios de todos los capítulos (otra
/// vez el código de las soluciones, con otro nombre de paquete): es lo más
/// caro de las pruebas de la herramienta. Es parte de la prueba completa,
/// fuera de `cargo test`: la ejecuta `.ci/run` (paso 4) con `-- --ignored`.
#[test]
#[ignore = "prueba completa: la ejecuta .ci/run (paso 4) con --ignored"]
fn con_todo_resuelto_una_sola_orden_rehace_el_progreso() {
    let dir = copia("copia-todo-resuelto-progreso");
    let lista = lista();
    for e in &lista {
        resolver(&dir, e);
    }
    // Sin progreso guardado, una sola orden lo rehace entero: N/N.
    let o = curso(&dir, &["verifica", "--todos"], "");
    assert!(o.status.success(), "{}", texto(&o));
    let t = texto(&curso(&dir, &["lista"], ""));
    let total = lista.len();
    assert!(t.contains(&format!("] {total}/{total}")) && t.contains("¡Has terminado"), "{t}");
}
