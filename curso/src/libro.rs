//! Construye el libro con mdbook y mdbook-mermaid usados como bibliotecas,
//! a las versiones fijadas en `curso/Cargo.toml`.
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
    instalar_registro();
    let errores_antes = ERRORES.load(Ordering::SeqCst);
    let avisos_antes = AVISOS.load(Ordering::SeqCst);
    let mut libro = MDBook::load(raiz).map_err(|e| format!("no puedo cargar el libro: {e:#}"))?;
    if let Some(d) = destino {
        libro.config.build.build_dir = d.to_path_buf();
    }
    let repositorio = repositorio(&libro.config);
    libro.with_preprocessor(mdbook_mermaid::Mermaid);
    libro.with_preprocessor(EnlacesAlRepositorio { repositorio });
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

/// Convierte los enlaces de los capítulos a archivos del espacio de trabajo
/// (`../lessons/06-hilos-verdes/src/main.rs`) en enlaces al repositorio, que
/// funcionan también en el sitio publicado.
pub struct EnlacesAlRepositorio {
    pub repositorio: String,
}

impl Preprocessor for EnlacesAlRepositorio {
    fn name(&self) -> &str {
        "enlaces-al-repositorio"
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> ResultadoMdbook<Book> {
        let fuente = ctx.root.join(&ctx.config.book.src);
        book.for_each_mut(|item| {
            if let BookItem::Chapter(capitulo) = item {
                let carpeta = capitulo
                    .source_path
                    .as_ref()
                    .and_then(|p| p.parent())
                    .map(|p| fuente.join(p))
                    .unwrap_or_else(|| fuente.clone());
                capitulo.content = reescribir_enlaces(&capitulo.content, &carpeta, &ctx.root, &self.repositorio);
            }
        });
        Ok(book)
    }
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
