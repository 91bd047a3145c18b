//! Construye el libro con mdbook y mdbook-mermaid usados como bibliotecas,
//! a las versiones fijadas en `curso/Cargo.toml`.
//!
//! `book.toml` declara los mismos preprocesadores que se registran aquí, con
//! los mismos nombres: `mermaid` (la orden `mdbook-mermaid`) y los del curso,
//! [`DIRECTIVAS`] y [`ENLACES`] (la orden `cargo curso mantenimiento
//! preprocesador NOMBRE`, que habla el protocolo de preprocesadores de
//! mdbook, ver [`preprocesar`]). Así `mdbook build` y `mdbook serve`, con
//! mdbook 0.5.4 y mdbook-mermaid 0.17.1 instalados, dan el mismo sitio que
//! `cargo libro`, que no necesita nada instalado: aquí los preprocesadores
//! declarados se sustituyen por los mismos, dentro del proceso.
//!
//! mdbook termina bien aunque falte un archivo incluido o un ancla (solo lo
//! escribe como ERROR en su registro), así que aquí se cuentan los errores y
//! avisos que registra y la construcción falla si hay alguno.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use mdbook_driver::MDBook;
use mdbook_driver::book::{Book, BookItem};
use mdbook_driver::errors::Result as ResultadoMdbook;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

/// El nombre del preprocesador de las directivas del curso en `book.toml`.
pub const DIRECTIVAS: &str = "directivas-del-curso";
/// El nombre del preprocesador de los enlaces al repositorio en `book.toml`.
pub const ENLACES: &str = "enlaces-al-repositorio";

/// La versión de mdbook con la que se construye el libro (y para la que se
/// revisó el tema de `curso/tema/`).
pub const VERSION_DE_MDBOOK: &str = "0.5.4";
/// La de mdbook-mermaid.
pub const VERSION_DE_MDBOOK_MERMAID: &str = "0.17.1";

/// La URL del repositorio cuando no se configura otra.
pub const REPOSITORIO_POR_DEFECTO: &str = "https://github.com/curso-async-rust/curso";

static ERRORES: AtomicUsize = AtomicUsize::new(0);
static AVISOS: AtomicUsize = AtomicUsize::new(0);

/// Cómo terminó una construcción.
#[derive(Debug)]
pub struct Construccion {
    pub destino: PathBuf,
    pub errores: usize,
    pub avisos: usize,
}

/// Construye el libro de `raiz` en `destino` (por defecto, el `build-dir`
/// de `book.toml`). Devuelve cuántos errores y avisos registró mdbook.
pub fn construir(raiz: &Path, destino: Option<&Path>) -> Result<Construccion, String> {
    construir_con(raiz, destino, None)
}

/// Como [`construir`]; con `recarga`, las páginas llevan el guion de
/// recarga de mdbook apuntando a ese punto (`__livereload`), como con
/// `mdbook serve`.
pub fn construir_con(raiz: &Path, destino: Option<&Path>, recarga: Option<&str>) -> Result<Construccion, String> {
    instalar_registro();
    let errores_antes = ERRORES.load(Ordering::SeqCst);
    let avisos_antes = AVISOS.load(Ordering::SeqCst);
    let mut libro = MDBook::load(raiz).map_err(|e| format!("no puedo cargar el libro: {e:#}"))?;
    if let Some(d) = destino {
        libro.config.build.build_dir = d.to_path_buf();
    }
    if let Some(punto) = recarga {
        libro
            .config
            .set("output.html.live-reload-endpoint", punto)
            .map_err(|e| format!("no puedo activar la recarga: {e:#}"))?;
    }
    // Los mismos nombres que en book.toml: sustituyen, en su sitio, a las
    // órdenes externas que mdbook habría lanzado.
    for nombre in ["mermaid", DIRECTIVAS, ENLACES] {
        if libro.config.get::<toml::Value>(&format!("preprocessor.{nombre}")).ok().flatten().is_none() {
            return Err(format!("book.toml no declara el preprocesador «{nombre}» ([preprocessor.{nombre}])"));
        }
    }
    libro.with_preprocessor(mdbook_mermaid::Mermaid);
    libro.with_preprocessor(DirectivasDelCurso);
    libro.with_preprocessor(EnlacesAlRepositorio);
    libro.build().map_err(|e| format!("mdbook no pudo construir el libro: {e:#}"))?;
    let destino = raiz.join(&libro.config.build.build_dir);
    Ok(Construccion {
        destino,
        errores: ERRORES.load(Ordering::SeqCst) - errores_antes,
        avisos: AVISOS.load(Ordering::SeqCst) - avisos_antes,
    })
}

/// `output.html.git-repository-url` (el flujo de Pages lo fija con la
/// variable `MDBOOK_OUTPUT__HTML__GIT_REPOSITORY_URL`).
pub fn repositorio(config: &mdbook_driver::config::Config) -> String {
    config
        .get::<String>("output.html.git-repository-url")
        .ok()
        .flatten()
        .unwrap_or_else(|| REPOSITORIO_POR_DEFECTO.to_string())
        .trim_end_matches('/')
        .to_string()
}

/// Ejecuta un preprocesador del curso como orden externa de mdbook
/// (`cargo curso mantenimiento preprocesador NOMBRE [supports RENDERER]`):
/// con `supports`, responde con el código de salida si sirve para ese
/// renderizador; sin él, lee `[contexto, libro]` en JSON de `entrada` y
/// escribe el libro preprocesado en `salida`.
pub fn preprocesar(
    nombre: &str,
    argumentos: &[String],
    entrada: impl std::io::Read,
    salida: impl std::io::Write,
) -> Result<bool, String> {
    let preprocesador: Box<dyn Preprocessor> = match nombre {
        DIRECTIVAS => Box::new(DirectivasDelCurso),
        ENLACES => Box::new(EnlacesAlRepositorio),
        otro => {
            return Err(format!(
                "no hay ningún preprocesador del curso llamado «{otro}» (hay {DIRECTIVAS} y {ENLACES})"
            ));
        }
    };
    match argumentos {
        [] => {}
        [orden, renderizador] if orden == "supports" => {
            return preprocesador.supports_renderer(renderizador).map_err(|e| format!("{e:#}"));
        }
        otros => return Err(format!("argumentos inesperados: {}", otros.join(" "))),
    }
    let (contexto, libro) =
        mdbook_preprocessor::parse_input(entrada).map_err(|e| format!("mdbook no me pasó un libro legible: {e:#}"))?;
    let libro = preprocesador.run(&contexto, libro).map_err(|e| format!("{e:#}"))?;
    serde_json::to_writer(salida, &libro).map_err(|e| format!("no puedo escribir el libro: {e}"))?;
    Ok(true)
}

/// Convierte los enlaces de los capítulos a archivos del espacio de trabajo
/// (`../lessons/06-hilos-verdes/src/main.rs`) en enlaces al repositorio, que
/// funcionan también en el sitio publicado. El repositorio sale de
/// `output.html.git-repository-url`.
pub struct EnlacesAlRepositorio;

impl Preprocessor for EnlacesAlRepositorio {
    fn name(&self) -> &str {
        ENLACES
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> ResultadoMdbook<Book> {
        let repositorio = repositorio(&ctx.config);
        let fuente = ctx.root.join(&ctx.config.book.src);
        book.for_each_mut(|item| {
            if let BookItem::Chapter(capitulo) = item {
                let carpeta = capitulo
                    .source_path
                    .as_ref()
                    .and_then(|p| p.parent())
                    .map(|p| fuente.join(p))
                    .unwrap_or_else(|| fuente.clone());
                capitulo.content = reescribir_enlaces(&capitulo.content, &carpeta, &ctx.root, &repositorio);
            }
        });
        Ok(book)
    }
}

/// Las directivas propias del curso, generadas a partir de sus fuentes de
/// verdad para que el libro no pueda desviarse de ellas:
///
/// - `{{#ejercicios}}` en un capítulo: la tabla de sus ejercicios, leída de
///   `exercises/ejercicios.toml`;
/// - `{{#horario}}`: el horario del curso, con el tiempo estimado que cada
///   capítulo declara en sus notas para quien enseña;
/// - `{{#mediciones}}`: el registro de mediciones de todos los capítulos.
///
/// La raíz del curso es la del libro (`ctx.root`).
pub struct DirectivasDelCurso;

impl Preprocessor for DirectivasDelCurso {
    fn name(&self) -> &str {
        DIRECTIVAS
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> ResultadoMdbook<Book> {
        let raiz = &ctx.root;
        let lista = crate::ejercicios::cargar(raiz).map_err(|e| anyhow_error(&e))?;
        let horario = tabla_de_horario(raiz);
        let mediciones = crate::mediciones::pagina(raiz);
        let mut fallo = None;
        book.for_each_mut(|item| {
            let BookItem::Chapter(capitulo) = item else { return };
            let nombre = capitulo
                .source_path
                .as_ref()
                .and_then(|p| p.file_stem())
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if capitulo.content.contains("{{#ejercicios}}") {
                match tabla_de_ejercicios(&lista, &nombre) {
                    Ok(tabla) => capitulo.content = capitulo.content.replace("{{#ejercicios}}", &tabla),
                    Err(e) => fallo = Some(e),
                }
            }
            if capitulo.content.contains("{{#mediciones}}") {
                match &mediciones {
                    Ok(t) => capitulo.content = capitulo.content.replace("{{#mediciones}}", t),
                    Err(e) => fallo = Some(e.clone()),
                }
            }
            if capitulo.content.contains("{{#horario}}") {
                match &horario {
                    Ok(tabla) => capitulo.content = capitulo.content.replace("{{#horario}}", tabla),
                    Err(e) => fallo = Some(e.clone()),
                }
            }
        });
        match fallo {
            Some(e) => Err(anyhow_error(&e)),
            None => Ok(book),
        }
    }
}

fn anyhow_error(mensaje: &str) -> mdbook_driver::errors::Error {
    mdbook_driver::errors::Error::msg(mensaje.to_string())
}

/// La tabla de ejercicios del capítulo `capitulo` (`06-hilos-verdes`).
pub fn tabla_de_ejercicios(lista: &[crate::ejercicios::Ejercicio], capitulo: &str) -> Result<String, String> {
    let del_capitulo: Vec<_> = lista.iter().filter(|e| e.capitulo == capitulo).collect();
    let Some(primero) = del_capitulo.first() else {
        return Err(format!("book/{capitulo}.md usa {{{{#ejercicios}}}}, pero no tiene ejercicios en la lista"));
    };
    let mut t = String::from("| | ejercicio | qué haces | archivo |\n|---|---|---|---|\n");
    for (i, e) in del_capitulo.iter().enumerate() {
        let compilar = if e.compilar { " (haz que compile)" } else { "" };
        t.push_str(&format!(
            "| {} | `{}` | {}{compilar} | [`{}`](../exercises/{}/{}) |\n",
            i + 1,
            e.nombre,
            e.titulo,
            e.archivo,
            e.capitulo,
            e.archivo
        ));
    }
    t.push_str(&format!(
        "\nPrueba uno con `cargo curso verifica NOMBRE`, todos con `cargo test -p {}`, o deja \
         `cargo curso vigila` abierto mientras trabajas. Si te atascas: `cargo curso pista NOMBRE`.\n",
        primero.paquete()
    ));
    Ok(t)
}

/// Los minutos que declara un capítulo en `**Tiempo estimado:** N minutos`.
pub fn tiempo_estimado(texto: &str) -> Option<u32> {
    let resto = texto.split("**Tiempo estimado:**").nth(1)?;
    resto.split_whitespace().next()?.parse().ok()
}

/// El título de una página: su primera línea `# ...`.
pub fn titulo(texto: &str) -> Option<&str> {
    texto.lines().find_map(|l| l.strip_prefix("# "))
}

/// ¿Es `nombre` (sin `.md`) el de un capítulo, `NN-tema`?
pub fn es_capitulo(nombre: &str) -> bool {
    let b = nombre.as_bytes();
    b.len() > 3 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b'-'
}

/// Los capítulos del libro (`06-hilos-verdes`), en orden: cada
/// `book/NN-tema.md`.
pub fn capitulos(raiz: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(raiz.join("book"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".md")).map(str::to_string))
        .filter(|n| es_capitulo(n))
        .collect();
    v.sort();
    v
}

/// El horario: un capítulo por fila, con su tiempo y sus comandos.
pub fn tabla_de_horario(raiz: &Path) -> Result<String, String> {
    let capitulos: Vec<PathBuf> = capitulos(raiz).iter().map(|c| raiz.join("book").join(format!("{c}.md"))).collect();
    let mut t = String::from("| capítulo | tiempo | la lección en directo | las soluciones |\n|---|---|---|---|\n");
    let mut total = 0;
    for ruta in &capitulos {
        let texto = std::fs::read_to_string(ruta).map_err(|e| e.to_string())?;
        let archivo = ruta.file_name().unwrap().to_string_lossy();
        // Un capítulo sin tiempo lo señala `cargo test` (comprobaciones); aquí, «?».
        let minutos = tiempo_estimado(&texto);
        total += minutos.unwrap_or(0);
        let minutos = minutos.map_or("?".to_string(), |m| format!("{m} min"));
        let numero = &archivo[..2];
        t.push_str(&format!(
            "| [{}]({archivo}) | {minutos} | `cargo run -p leccion-{numero} --release` | `cargo run -p soluciones-{numero}` |\n",
            titulo(&texto).unwrap_or(&archivo),
        ));
    }
    let (h, m) = (total / 60, total % 60);
    t.push_str(&format!("| **total** | **{h} h {m:02} min** | | |\n"));
    Ok(t)
}

/// Reescribe `](../ruta)` cuando la ruta sale de la carpeta del libro.
pub fn reescribir_enlaces(texto: &str, carpeta: &Path, raiz: &Path, repositorio: &str) -> String {
    let mut salida = String::with_capacity(texto.len());
    let mut resto = texto;
    while let Some(pos) = resto.find("](") {
        let (antes, despues) = resto.split_at(pos + 2);
        salida.push_str(antes);
        let fin = despues.find(|c: char| c == ')' || c.is_whitespace()).unwrap_or(despues.len());
        let destino = &despues[..fin];
        let (ruta, fragmento) = destino.split_once('#').map_or((destino, ""), |(r, f)| (r, f));
        let absoluta = crate::verificacion::normalizar(&carpeta.join(ruta));
        let dentro_del_libro = absoluta.starts_with(carpeta) || absoluta.starts_with(raiz.join("book"));
        match absoluta.strip_prefix(raiz) {
            Ok(relativa) if ruta.starts_with("../") && !dentro_del_libro => {
                let tipo = if absoluta.is_dir() { "tree" } else { "blob" };
                salida.push_str(&format!("{repositorio}/{tipo}/main/{}", relativa.display()));
                if ruta.ends_with('/') {
                    salida.push('/');
                }
                if !fragmento.is_empty() {
                    salida.push('#');
                    salida.push_str(fragmento);
                }
            }
            _ => salida.push_str(destino),
        }
        resto = &despues[fin..];
    }
    salida.push_str(resto);
    salida
}

/// Un registro mínimo para `tracing`: escribe avisos y errores de mdbook en
/// stderr y los cuenta.
struct Registro;

struct Mensaje(String);

impl tracing::field::Visit for Mensaje {
    fn record_debug(&mut self, campo: &tracing::field::Field, valor: &dyn std::fmt::Debug) {
        if campo.name() == "message" {
            self.0 = format!("{valor:?}");
        } else {
            self.0.push_str(&format!(" {}={valor:?}", campo.name()));
        }
    }
}

impl tracing::Subscriber for Registro {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() <= tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, evento: &tracing::Event<'_>) {
        let mut mensaje = Mensaje(String::new());
        evento.record(&mut mensaje);
        let nivel = *evento.metadata().level();
        if nivel == tracing::Level::ERROR {
            ERRORES.fetch_add(1, Ordering::SeqCst);
        } else {
            AVISOS.fetch_add(1, Ordering::SeqCst);
        }
        eprintln!("{nivel} {}: {}", evento.metadata().target(), mensaje.0);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

fn instalar_registro() {
    static UNA_VEZ: std::sync::Once = std::sync::Once::new();
    UNA_VEZ.call_once(|| {
        let _ = tracing::subscriber::set_global_default(Registro);
    });
}

/// Lo que rehace el libro en `cargo libro` cuando cambia una fuente: la
/// misma construcción, con el guion de recarga, en una carpeta aparte
/// (`CARPETA.nueva`) que después ocupa el sitio de `carpeta`; así el servidor
/// nunca sirve un libro a medio escribir. Los errores y avisos de mdbook
/// hacen fallar la reconstrucción (quedan escritos arriba) y dejan el libro
/// anterior.
pub fn reconstruir_en_vivo(raiz: &Path, carpeta: &Path) -> impl FnMut() -> Result<(), String> + Send + 'static {
    let raiz = raiz.to_path_buf();
    let carpeta = carpeta.to_path_buf();
    let con_sufijo = move |sufijo: &str| {
        let mut nombre = carpeta.file_name().unwrap_or_default().to_os_string();
        nombre.push(sufijo);
        carpeta.with_file_name(nombre)
    };
    let (nueva, vieja, carpeta) = (con_sufijo(".nueva"), con_sufijo(".vieja"), con_sufijo(""));
    move || {
        let _ = std::fs::remove_dir_all(&nueva);
        let hecho = construir_con(&raiz, Some(&nueva), Some(crate::servidor::RECARGA))?;
        if hecho.errores + hecho.avisos > 0 {
            return Err(format!("{} errores y {} avisos de mdbook (arriba)", hecho.errores, hecho.avisos));
        }
        let _ = std::fs::remove_dir_all(&vieja);
        std::fs::rename(&carpeta, &vieja).map_err(|e| format!("no puedo apartar {}: {e}", carpeta.display()))?;
        std::fs::rename(&nueva, &carpeta).map_err(|e| format!("no puedo poner el libro nuevo: {e}"))?;
        let _ = std::fs::remove_dir_all(&vieja);
        Ok(())
    }
}
