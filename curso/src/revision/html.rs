//! La revisión del HTML construido: cada `href` y `src` interno lleva a un
//! archivo que existe y, si tiene fragmento (`#ancla`), a un `id` que existe
//! en esa página; cada enlace al repositorio lleva a un archivo del espacio
//! de trabajo.
//!
//! Los atributos se leen con el tokenizador de html5ever (el que ya usa
//! mdbook para escribir las páginas): entiende comillas simples, atributos
//! sin comillas, entidades (`&amp;`) y el contenido de `<script>` y
//! `<style>`, que no es HTML.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};
use walkdir::WalkDir;

use crate::error::{Hallazgo, Tipo};
use crate::modelo::normalizar;

/// Los atributos que importan de una página: sus `id` y los destinos de sus
/// `href` y `src`, en orden.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Atributos {
    pub ids: Vec<String>,
    pub enlaces: Vec<String>,
}

/// Lo que recibe los elementos del tokenizador y guarda los atributos.
#[derive(Default)]
struct Recolector(RefCell<Atributos>);

impl TokenSink for Recolector {
    type Handle = ();

    fn process_token(&self, token: Token, _linea: u64) -> TokenSinkResult<()> {
        let Token::TagToken(etiqueta) = token else { return TokenSinkResult::Continue };
        if etiqueta.kind != TagKind::StartTag {
            return TokenSinkResult::Continue;
        }
        let mut atributos = self.0.borrow_mut();
        for a in etiqueta.attrs {
            match &*a.name.local {
                "id" => atributos.ids.push(a.value.to_string()),
                "href" | "src" => atributos.enlaces.push(a.value.to_string()),
                _ => {}
            }
        }
        // Lo que va dentro de estos elementos es texto, no etiquetas (como
        // haría el árbol de un navegador, que aquí no se construye).
        match &*etiqueta.name {
            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => TokenSinkResult::RawData(RawKind::Rawtext),
            "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
            _ => TokenSinkResult::Continue,
        }
    }
}

/// Los `id` y los destinos de `href` y `src` de un HTML.
pub fn atributos(html: &str) -> Atributos {
    let tokenizador = Tokenizer::new(Recolector::default(), TokenizerOpts::default());
    let cola = BufferQueue::default();
    cola.push_back(StrTendril::from(html));
    let _ = tokenizador.feed(&cola);
    tokenizador.end();
    tokenizador.sink.0.take()
}

/// Las páginas HTML de `destino`, en orden.
fn paginas(destino: &Path) -> Vec<PathBuf> {
    let html = WalkDir::new(destino).into_iter().flatten().filter(|e| e.file_type().is_file());
    let mut v: Vec<PathBuf> =
        html.map(|e| e.into_path()).filter(|p| p.extension().is_some_and(|x| x == "html")).collect();
    v.sort();
    v
}

/// La revisión de los enlaces de un sitio: las anclas de cada página se leen
/// una vez.
struct Revision<'a> {
    raiz: &'a Path,
    prefijo_repo: String,
    ids: HashMap<PathBuf, HashSet<String>>,
    hallazgos: Vec<Hallazgo>,
}

impl Revision<'_> {
    fn problema(&mut self, pagina: &str, tipo: Tipo, mensaje: String) {
        self.hallazgos.push(Hallazgo::en_archivo(pagina, None, tipo, format!("{pagina}: {mensaje}")));
    }

    fn tiene_id(&mut self, pagina: &Path, id: &str) -> bool {
        let ids = self.ids.entry(pagina.to_path_buf()).or_insert_with(|| {
            let html = fs::read_to_string(pagina).unwrap_or_default();
            atributos(&html).ids.into_iter().collect()
        });
        ids.contains(id)
    }

    /// Un enlace al repositorio: `.../blob/RAMA/ruta`, `.../tree/RAMA/ruta` o `.../edit/RAMA/ruta`.
    fn al_repositorio(&mut self, nombre: &str, valor: &str, resto: &str) {
        let ruta = resto.splitn(3, '/').nth(2).unwrap_or_default();
        let ruta = ruta.split('#').next().unwrap_or_default().trim_end_matches('/');
        if ["blob/", "tree/", "edit/"].iter().any(|p| resto.starts_with(p)) && !self.raiz.join(ruta).exists() {
            let mensaje = format!("el enlace al repositorio {valor} lleva a un archivo que no existe");
            self.problema(nombre, Tipo::EnlaceAlRepositorioRoto, mensaje);
        }
    }

    /// Un enlace de `pagina` (que se llama `nombre` en el sitio).
    fn enlace(&mut self, pagina: &Path, nombre: &str, valor: &str) {
        if let Some(resto) = valor.strip_prefix(&self.prefijo_repo) {
            return self.al_repositorio(nombre, valor, resto);
        }
        if valor.contains("://") || ["mailto:", "data:", "javascript:"].iter().any(|p| valor.starts_with(p)) {
            return;
        }
        let (ruta, fragmento) = valor.split_once('#').map_or((valor, None), |(r, f)| (r, Some(f)));
        let ruta = ruta.split('?').next().unwrap_or_default();
        if crate::libro::PUBLICADOS_APARTE.contains(&ruta) {
            return;
        }
        let objetivo = if ruta.is_empty() {
            pagina.to_path_buf()
        } else {
            let o = normalizar(&pagina.parent().unwrap_or(Path::new(".")).join(ruta));
            if o.is_dir() { o.join("index.html") } else { o }
        };
        if !objetivo.is_file() {
            self.problema(nombre, Tipo::EnlaceHtmlRoto, format!("el enlace «{valor}» no lleva a ningún archivo"));
        } else if let Some(f) = fragmento.filter(|f| !f.is_empty())
            && objetivo.extension().is_some_and(|x| x == "html")
            && !self.tiene_id(&objetivo, f)
        {
            self.problema(nombre, Tipo::AnclaHtmlRota, format!("el enlace «{valor}» apunta a un ancla que no existe"));
        }
    }
}

/// Revisa el HTML construido en `destino`: cada `href` y `src` interno lleva
/// a un archivo que existe y, si tiene fragmento, a un `id` que existe en esa
/// página; cada enlace al repositorio (`repositorio`) lleva a un archivo del
/// espacio de trabajo de `raiz`.
pub fn comprobar_html(destino: &Path, raiz: &Path, repositorio: &str) -> Vec<Hallazgo> {
    let prefijo_repo = format!("{}/", repositorio.trim_end_matches('/'));
    let mut revision = Revision { raiz, prefijo_repo, ids: HashMap::new(), hallazgos: Vec::new() };
    for pagina in paginas(destino) {
        let nombre = pagina.strip_prefix(destino).unwrap_or(&pagina).display().to_string();
        // 404.html usa rutas absolutas desde la raíz del sitio (site-url).
        if nombre == "404.html" {
            continue;
        }
        let html = fs::read_to_string(&pagina).unwrap_or_default();
        let mut vistos = HashSet::new();
        for valor in atributos(&html).enlaces {
            if vistos.insert(valor.clone()) {
                revision.enlace(&pagina, &nombre, &valor);
            }
        }
    }
    revision.hallazgos
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_los_atributos_como_un_navegador() {
        let html = r#"<a href="a.html#x" data-id="no">x</a><h2 id='bien'>B</h2><img src=c.png>
            <a href="?a=1&amp;b=2">y</a><script>let s = '<a href="no.html">';</script><p id="z"></p>"#;
        let a = atributos(html);
        assert_eq!(a.ids, ["bien", "z"]);
        assert_eq!(a.enlaces, ["a.html#x", "c.png", "?a=1&b=2"]);
    }

    #[test]
    fn un_ancla_rota_en_el_html_es_un_problema() {
        let raiz = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
        let dir = std::env::temp_dir().join(format!("curso-html-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("a.html"), r#"<a href="b.html#bien">x</a> <a href="b.html#mal">y</a> <a href="c.html">z</a> <a data-id="q" href="https://tokio.rs">t</a>"#).unwrap();
        fs::write(dir.join("b.html"), r#"<h2 id="bien">B</h2><p data-id="mal"></p>"#).unwrap();
        let p = comprobar_html(&dir, &raiz, "https://github.com/a/b");
        fs::remove_dir_all(&dir).unwrap();
        let tipos: Vec<Tipo> = p.iter().map(|h| h.tipo).collect();
        assert_eq!(tipos, [Tipo::AnclaHtmlRota, Tipo::EnlaceHtmlRoto], "{p:?}");
        assert!(p[0].mensaje.contains("b.html#mal") && p[1].mensaje.contains("«c.html» no lleva"), "{p:?}");
    }
}
