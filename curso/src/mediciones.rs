//! El registro de mediciones: cada número con unidad de la prosa del libro
//! está en el registro de su capítulo (`lessons/NN-tema/mediciones.toml`),
//! que dice qué es y cómo se sabe:
//!
//! - `medido`: lo mide una lección; `orden` es la orden que lo mide y
//!   `linea` (opcional), un trozo de la línea de su salida que lo da;
//! - `citado`: viene de una entrada de la página «Referencias»
//!   (`referencia`: su identificador, `tokio-cola-local` para el ancla
//!   `ref-tokio-cola-local` de `book/referencias.md`);
//! - `parametro`: una entrada del experimento o un número de ejemplo
//!   (`donde`: el archivo que lo fija);
//! - `calculo`: una cuenta con otros valores del registro (`cuenta`).
//!
//! [`comprobar`] falla si la prosa cita un número que el registro no tiene,
//! o si el registro guarda uno que la prosa ya no cita. [`medir`] ejecuta,
//! en orden, cada orden de medida y guarda su salida y un resumen en JSON.
//! La página «Mediciones» del libro es [`pagina`].

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::LazyLock;
use std::time::Instant;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// Un dato del registro.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Dato {
    /// Los valores tal como aparecen en la prosa («9,7 KiB»).
    pub valores: Vec<String>,
    /// Qué es, en una frase.
    pub que: String,
    /// `medido`, `citado`, `parametro` o `calculo`.
    pub tipo: String,
    pub orden: Option<String>,
    pub linea: Option<String>,
    /// La entrada de `book/referencias.md` de la que sale un valor citado.
    pub referencia: Option<String>,
    pub donde: Option<String>,
    pub cuenta: Option<String>,
    /// La máquina donde se midió (por defecto, `referencia`).
    pub maquina: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Archivo {
    /// Órdenes que no dan ningún número de la prosa, pero que en modo
    /// completo escriben los resultados (`resultados/*.csv`) de las
    /// gráficas. `cargo curso mantenimiento mide` también las ejecuta.
    #[serde(default)]
    genera: Vec<String>,
    #[serde(default)]
    dato: Vec<Dato>,
    #[serde(default)]
    razon: Vec<Razon>,
}

/// Una de las razones que importan: cuántas veces es `mayor` respecto de
/// `menor`, dos valores medidos del mismo registro. La cuenta la hace la
/// página, no quien escribe.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Razon {
    pub que: String,
    pub mayor: String,
    pub menor: String,
}

/// El registro de un capítulo.
#[derive(Debug, Clone)]
pub struct Registro {
    /// `06-hilos-verdes`.
    pub capitulo: String,
    pub titulo: String,
    pub genera: Vec<String>,
    pub datos: Vec<Dato>,
    pub razones: Vec<Razon>,
}

impl Registro {
    pub fn ruta(&self) -> String {
        format!("lessons/{}/mediciones.toml", self.capitulo)
    }
}

/// Una máquina donde se midió.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Maquina {
    pub nombre: String,
    pub cpu: String,
    pub nucleos: u32,
    pub memoria: String,
    pub sistema: String,
    pub rustc: String,
    pub fecha: String,
}

pub const MAQUINAS: &str = "curso/maquinas.toml";

/// Las máquinas de `curso/maquinas.toml`, por su clave.
pub fn maquinas(raiz: &Path) -> Result<BTreeMap<String, Maquina>, String> {
    let texto = fs::read_to_string(raiz.join(MAQUINAS)).map_err(|e| format!("no puedo leer {MAQUINAS}: {e}"))?;
    toml::from_str(&texto).map_err(|e| format!("{MAQUINAS}: {e}"))
}

/// Carga el registro de cada capítulo (vacío si no tiene archivo).
pub fn cargar(raiz: &Path) -> Result<Vec<Registro>, String> {
    let mut registros = Vec::new();
    for capitulo in crate::libro::capitulos(raiz) {
        let ruta = raiz.join("lessons").join(&capitulo).join("mediciones.toml");
        let archivo: Archivo = match fs::read_to_string(&ruta) {
            Ok(texto) => toml::from_str(&texto).map_err(|e| format!("lessons/{capitulo}/mediciones.toml: {e}"))?,
            Err(_) => Archivo::default(),
        };
        let texto = fs::read_to_string(raiz.join("book").join(format!("{capitulo}.md"))).unwrap_or_default();
        let titulo = crate::libro::titulo(&texto).unwrap_or(&capitulo).to_string();
        registros.push(Registro {
            capitulo,
            titulo,
            genera: archivo.genera,
            datos: archivo.dato,
            razones: archivo.razon,
        });
    }
    Ok(registros)
}

const UNIDADES: &str = "KiB|MiB|GiB|TiB|KB|kB|MB|GB|B|bytes|byte|ns|µs|us|ms|segundos|segundo|s|minutos|minuto|\
                        horas|hora|%|×|x|veces|GHz|MHz|por segundo";

static NUMERO: LazyLock<Regex> = LazyLock::new(|| {
    // Un número (con miles separados por espacio y decimales con coma o
    // punto) seguido de una unidad. Sin lookbehind en `regex`: el carácter de
    // antes se comprueba a mano.
    let numero = r"(\d{1,3}(?:[ \u{a0}\u{202f}]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)";
    Regex::new(&format!(r"{numero}[ \u{{a0}}\u{{202f}}]?(?:{UNIDADES})(?:$|[^\p{{L}}\p{{N}}_])")).unwrap()
});
static CODIGO_EN_LINEA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`[^`]*`").unwrap());
static DESTINO_DE_ENLACE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\([^)]*\)").unwrap());
static UNIDAD_FINAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^\p{L}\p{N}_]$").unwrap());

/// Un valor con los espacios (normales o de no separación) unificados.
pub fn normalizar(valor: &str) -> String {
    valor.split([' ', '\u{a0}', '\u{202f}']).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ")
}

/// Los números con unidad de un texto Markdown, con su línea: fuera de los
/// bloques de código, del código en línea, de los destinos de los enlaces y
/// de la línea `**Tiempo estimado:**` (la usa el horario).
pub fn valores_de_la_prosa(texto: &str) -> Vec<(usize, String)> {
    // Se busca por párrafos (líneas seguidas sin una en blanco), para ver
    // también «13,9» al final de una línea y «KiB» al principio de la
    // siguiente. Cada valor se atribuye a la línea donde empieza.
    let mut valores = Vec::new();
    let mut parrafo = String::new();
    let mut inicios: Vec<(usize, usize)> = Vec::new(); // (posición en el párrafo, línea)
    let mut en_bloque = false;
    let mut vaciar = |parrafo: &mut String, inicios: &mut Vec<(usize, usize)>| {
        for m in NUMERO.find_iter(parrafo) {
            let antes = parrafo[..m.start()].chars().next_back();
            if antes.is_some_and(|c| c.is_alphanumeric() || "_/.,-".contains(c)) {
                continue;
            }
            let linea = inicios.iter().rev().find(|(pos, _)| *pos <= m.start()).map_or(0, |(_, l)| *l);
            let encontrado = UNIDAD_FINAL.replace(m.as_str(), "");
            valores.push((linea, normalizar(&encontrado)));
        }
        parrafo.clear();
        inicios.clear();
    };
    for (i, linea) in texto.lines().enumerate() {
        let recortada = linea.trim_start().trim_start_matches('>').trim_start();
        if recortada.starts_with("```") || recortada.starts_with("~~~") {
            vaciar(&mut parrafo, &mut inicios);
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque || linea.contains("**Tiempo estimado:**") {
            continue;
        }
        if recortada.is_empty() {
            vaciar(&mut parrafo, &mut inicios);
            continue;
        }
        let sin_codigo = CODIGO_EN_LINEA.replace_all(recortada, " ");
        let limpia = DESTINO_DE_ENLACE.replace_all(&sin_codigo, "]");
        if !parrafo.is_empty() {
            parrafo.push(' ');
        }
        inicios.push((parrafo.len(), i + 1));
        parrafo.push_str(limpia.trim_end());
    }
    vaciar(&mut parrafo, &mut inicios);
    valores
}

fn obligatorio(tipo: &str) -> Option<&'static str> {
    match tipo {
        "medido" => Some("orden"),
        "citado" => Some("referencia"),
        "parametro" => Some("donde"),
        "calculo" => Some("cuenta"),
        _ => None,
    }
}

/// El paquete de una orden `cargo run ... -p PAQUETE ...`.
pub fn paquete_de(orden: &str) -> Option<&str> {
    let mut partes = orden.split_whitespace();
    while let Some(p) = partes.next() {
        if p == "--" {
            return None;
        }
        if p == "-p" || p == "--package" {
            return partes.next();
        }
    }
    None
}

fn comprobar_orden(ruta: &str, orden: &str, paquetes: &[String]) -> Option<String> {
    match paquete_de(orden) {
        Some(p) if orden.starts_with("cargo run ") && paquetes.iter().any(|x| x == p) => None,
        _ => Some(format!(
            "{ruta}: la orden «{orden}» debe ser `cargo run ... -p PAQUETE` con un paquete del espacio de trabajo"
        )),
    }
}

/// Comprueba los registros contra la prosa del libro.
pub fn comprobar(raiz: &Path) -> Vec<String> {
    let registros = match cargar(raiz) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let paquetes = crate::comprobaciones::paquetes(raiz);
    let maquinas = maquinas(raiz);
    let mut problemas = Vec::new();
    if let Err(e) = &maquinas {
        problemas.push(e.clone());
    }
    let mut todos = BTreeSet::new();
    for r in &registros {
        let ruta = r.ruta();
        let mut registrados = BTreeSet::new();
        for orden in &r.genera {
            problemas.extend(comprobar_orden(&ruta, orden, &paquetes));
        }
        for d in &r.datos {
            let nombre = d.valores.join(", ");
            match obligatorio(&d.tipo) {
                None => problemas.push(format!(
                    "{ruta}: «{nombre}» tiene tipo «{}»; usa medido, citado, parametro o calculo",
                    d.tipo
                )),
                Some(campo) => {
                    let valor = match campo {
                        "orden" => &d.orden,
                        "referencia" => &d.referencia,
                        "donde" => &d.donde,
                        _ => &d.cuenta,
                    };
                    if valor.as_deref().is_none_or(|v| v.trim().is_empty()) {
                        problemas.push(format!("{ruta}: «{nombre}» es {} y necesita «{campo}»", d.tipo));
                    }
                }
            }
            if d.que.trim().is_empty() {
                problemas.push(format!("{ruta}: «{nombre}» necesita «que»"));
            }
            if d.valores.is_empty() {
                problemas.push(format!("{ruta}: un dato sin valores («{}»)", d.que));
            }
            if d.tipo != "citado" && d.referencia.is_some() {
                problemas.push(format!("{ruta}: «{nombre}» no es citado; «referencia» es solo para lo citado"));
            }
            if d.tipo != "medido" && (d.orden.is_some() || d.linea.is_some()) {
                problemas.push(format!("{ruta}: «{nombre}» no es medido; «orden» y «linea» son solo para lo medido"));
            }
            if let Some(orden) = &d.orden {
                problemas.extend(comprobar_orden(&ruta, orden, &paquetes));
            }
            if let Some(donde) = &d.donde {
                let archivo = donde.split(':').next().unwrap_or_default();
                if !raiz.join(archivo).is_file() {
                    problemas.push(format!("{ruta}: «{nombre}»: el archivo «{archivo}» no existe"));
                }
            }
            if let (Some(m), Ok(maquinas)) = (&d.maquina, &maquinas)
                && !maquinas.contains_key(m)
            {
                problemas.push(format!("{ruta}: «{nombre}»: la máquina «{m}» no está en {MAQUINAS}"));
            }
            for v in &d.valores {
                if !registrados.insert(normalizar(v)) {
                    problemas.push(format!("{ruta}: «{v}» está en dos datos; un valor, un significado"));
                }
            }
        }
        for z in &r.razones {
            for v in [&z.mayor, &z.menor] {
                let medido = r
                    .datos
                    .iter()
                    .any(|d| d.tipo == "medido" && d.valores.iter().any(|x| normalizar(x) == normalizar(v)));
                if !medido {
                    problemas.push(format!(
                        "{ruta}: la razón «{}» usa «{v}», que no es un valor medido de este registro",
                        z.que
                    ));
                }
            }
            if cuantas_veces(&z.mayor, &z.menor).is_none() {
                problemas
                    .push(format!("{ruta}: no sé dividir «{}» entre «{}» (¿unidades distintas?)", z.mayor, z.menor));
            }
        }
        let texto = fs::read_to_string(raiz.join("book").join(format!("{}.md", r.capitulo))).unwrap_or_default();
        let mut citados = BTreeSet::new();
        for (linea, valor) in valores_de_la_prosa(&texto) {
            if !registrados.contains(&valor) {
                problemas.push(format!(
                    "book/{}.md:{linea}: «{valor}» no está en {ruta}: di si está medido, citado, es un parámetro o una cuenta",
                    r.capitulo
                ));
            }
            citados.insert(valor);
        }
        for v in registrados.difference(&citados) {
            problemas.push(format!("{ruta}: «{v}» ya no aparece en book/{}.md; quítalo del registro", r.capitulo));
        }
        todos.extend(registrados);
    }
    // Las demás páginas solo citan valores que algún capítulo registra.
    let capitulos: BTreeSet<String> = registros.iter().map(|r| format!("{}.md", r.capitulo)).collect();
    for entrada in fs::read_dir(raiz.join("book")).into_iter().flatten().flatten() {
        let nombre = entrada.file_name().to_string_lossy().into_owned();
        if !nombre.ends_with(".md") || capitulos.contains(&nombre) {
            continue;
        }
        let texto = fs::read_to_string(entrada.path()).unwrap_or_default();
        for (linea, valor) in valores_de_la_prosa(&texto) {
            if !todos.contains(&valor) {
                problemas.push(format!("book/{nombre}:{linea}: «{valor}» no está en el registro de ningún capítulo"));
            }
        }
    }
    problemas
}

/// Un valor con unidad en la unidad base de su magnitud (bytes o
/// segundos), con su magnitud: `("9,58 KiB")` da `(9809.92, "B")`.
pub fn en_unidad_base(valor: &str) -> Option<(f64, &'static str)> {
    let v = normalizar(valor);
    let (numero, unidad) = v.rsplit_once(' ')?;
    let numero: f64 = numero.replace(' ', "").replace(',', ".").parse().ok()?;
    let (factor, magnitud) = match unidad {
        "B" | "bytes" | "byte" => (1.0, "B"),
        "KiB" => (1024.0, "B"),
        "MiB" => (1024.0 * 1024.0, "B"),
        "GiB" => (1024.0 * 1024.0 * 1024.0, "B"),
        "ns" => (1e-9, "s"),
        "µs" | "us" => (1e-6, "s"),
        "ms" => (1e-3, "s"),
        "s" => (1.0, "s"),
        _ => return None,
    };
    Some((numero * factor, magnitud))
}

/// Cuántas veces es `mayor` respecto de `menor`, si son de la misma magnitud.
pub fn cuantas_veces(mayor: &str, menor: &str) -> Option<f64> {
    let (a, ma) = en_unidad_base(mayor)?;
    let (b, mb) = en_unidad_base(menor)?;
    (ma == mb && b > 0.0).then(|| a / b)
}

/// Un número con coma decimal y sin decimales de sobra.
fn con_coma(x: f64) -> String {
    let texto = if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    };
    texto.replace('.', ",")
}

fn celda(texto: &str) -> String {
    texto.replace('|', "\\|").replace('\n', " ")
}

fn como_se_sabe(raiz: &Path, d: &Dato) -> String {
    match d.tipo.as_str() {
        "medido" => format!("medido: `{}`", d.orden.as_deref().unwrap_or_default()),
        "citado" => {
            let r = d.referencia.as_deref().unwrap_or_default();
            let titulo = crate::referencias::titulo(raiz, r).unwrap_or_else(|| r.to_string());
            format!("citado: [{}](referencias.md#{}{r})", celda(&titulo), crate::referencias::PREFIJO)
        }
        "parametro" => {
            let donde = d.donde.as_deref().unwrap_or_default();
            let archivo = donde.split(':').next().unwrap_or_default();
            match archivo.strip_prefix("book/") {
                Some(pagina) => format!("parámetro: [en el texto]({pagina})"),
                None => format!("parámetro: [`{donde}`](../{archivo})"),
            }
        }
        _ => format!("cuenta: {}", celda(d.cuenta.as_deref().unwrap_or_default())),
    }
}

/// La página «Mediciones»: las máquinas, las razones clave y el registro de
/// cada capítulo.
pub fn pagina(raiz: &Path) -> Result<String, String> {
    let registros = cargar(raiz)?;
    let maquinas = maquinas(raiz)?;
    let mut t = String::new();
    for (clave, m) in &maquinas {
        t.push_str(&format!(
            "- `{clave}`: {}. {}, {} núcleos, {} de memoria, {}, rustc {}; {}.\n",
            m.nombre, m.cpu, m.nucleos, m.memoria, m.sistema, m.rustc, m.fecha
        ));
    }
    t.push_str(
        "\n## Las razones que importan\n\nLa cuenta la hace esta página con los dos valores medidos.\n\n\
         | qué se compara | uno | otro | cuántas veces | capítulo |\n|---|---|---|---|---|\n",
    );
    for r in &registros {
        for z in &r.razones {
            let veces = cuantas_veces(&z.mayor, &z.menor).map(con_coma).unwrap_or_else(|| "?".into());
            t.push_str(&format!(
                "| {} | {} | {} | **×{veces}** | [{}]({}.md) |\n",
                celda(&z.que),
                z.mayor.replace(' ', "\u{a0}"),
                z.menor.replace(' ', "\u{a0}"),
                &r.capitulo[..2],
                r.capitulo
            ));
        }
    }
    for r in registros.iter().filter(|r| !r.datos.is_empty()) {
        t.push_str(&format!("\n## [{}]({}.md)\n\n", r.titulo, r.capitulo));
        t.push_str(&format!("Registro: [`{}`](../{}).\n\n", r.ruta(), r.ruta()));
        t.push_str("| valor | qué es | cómo se sabe |\n|---|---|---|\n");
        for d in &r.datos {
            let mut que = celda(&d.que);
            if let Some(m) = d.maquina.as_deref().filter(|m| *m != "referencia") {
                que.push_str(&format!(" (máquina `{m}`)"));
            }
            t.push_str(&format!("| {} | {que} | {} |\n", d.valores.join(", "), como_se_sabe(raiz, d)));
        }
    }
    Ok(t)
}

/// Una orden de medida ejecutada.
#[derive(Debug, Serialize)]
pub struct Ejecucion {
    pub capitulo: String,
    pub orden: String,
    pub ejecutada: String,
    pub segundos: f64,
    pub correcta: bool,
    pub salida: String,
}

/// Un dato medido, con la línea de la salida que lo da en esta máquina.
#[derive(Debug, Serialize)]
pub struct Lectura {
    pub capitulo: String,
    pub que: String,
    pub referencia: Vec<String>,
    pub orden: String,
    pub linea: Option<String>,
    pub aqui: Option<String>,
}

/// El resultado de [`medir`], que se guarda como `resultados.json`.
#[derive(Debug, Serialize)]
pub struct Resultados {
    pub modo: String,
    pub nucleos: usize,
    pub sistema: String,
    pub segundos: f64,
    pub ordenes: Vec<Ejecucion>,
    pub datos: Vec<Lectura>,
    pub problemas: Vec<String>,
}

/// La orden tal como se ejecuta: `cargo run -q`, y en modo rápido sin
/// `--release` y con `--rapido` al final.
pub fn orden_ejecutable(orden: &str, rapido: bool) -> Vec<String> {
    let mut partes: Vec<String> = orden.split_whitespace().map(str::to_string).collect();
    if partes.len() >= 2 {
        partes.insert(2, "-q".into());
    }
    if rapido {
        let corte = partes.iter().position(|p| p == "--").unwrap_or(partes.len());
        partes = partes
            .iter()
            .enumerate()
            .filter(|(i, p)| !(*i < corte && p.as_str() == "--release"))
            .map(|(_, p)| p.clone())
            .collect();
        if !partes.iter().any(|p| p == "--") {
            partes.push("--".into());
        }
        partes.push("--rapido".into());
    }
    partes
}

/// Ejecuta, en orden, cada orden de medida distinta de los registros (de
/// todos los capítulos, o de los que empiezan por `solo`), guarda la salida
/// de cada una y `resultados.json` en `target/mediciones/<modo>/`, y busca
/// en la salida la línea de cada dato medido.
pub fn medir(
    raiz: &Path,
    rapido: bool,
    solo: Option<&str>,
    mut progreso: impl FnMut(&str),
) -> Result<Resultados, String> {
    let inicio = Instant::now();
    let modo = if rapido { "rapido" } else { "completo" };
    let registros: Vec<Registro> =
        cargar(raiz)?.into_iter().filter(|r| solo.is_none_or(|s| r.capitulo.starts_with(s))).collect();
    if registros.is_empty() {
        return Err(format!("no hay ningún capítulo que empiece por «{}»", solo.unwrap_or_default()));
    }
    let carpeta = raiz.join("target/mediciones").join(modo);
    let _ = fs::remove_dir_all(&carpeta);
    fs::create_dir_all(&carpeta).map_err(|e| format!("no puedo crear {}: {e}", carpeta.display()))?;
    let mut ordenes: Vec<(String, String)> = Vec::new();
    for r in &registros {
        let medidas = r.datos.iter().filter(|d| d.tipo == "medido").filter_map(|d| d.orden.as_ref());
        for o in medidas.chain(&r.genera) {
            if !ordenes.iter().any(|(_, x)| x == o) {
                ordenes.push((r.capitulo.clone(), o.clone()));
            }
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Compilar todo de una vez, para que el tiempo de cada orden sea solo el suyo.
    let paquetes: BTreeSet<&str> = ordenes.iter().filter_map(|(_, o)| paquete_de(o)).collect();
    let mut compilar = vec!["build".to_string(), "-q".into(), "--bins".into()];
    if !rapido {
        compilar.push("--release".into());
    }
    for p in &paquetes {
        compilar.extend(["-p".to_string(), p.to_string()]);
    }
    progreso(&format!("compilando {} lecciones ({})", paquetes.len(), if rapido { "dev" } else { "release" }));
    let estado = Command::new(&cargo)
        .args(&compilar)
        .current_dir(raiz)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("no puedo ejecutar cargo: {e}"))?;
    if !estado.success() {
        return Err("no compilan las lecciones (mira los errores de arriba)".into());
    }
    let mut resultados = Resultados {
        modo: modo.into(),
        nucleos: std::thread::available_parallelism().map_or(1, |n| n.get()),
        sistema: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        segundos: 0.0,
        ordenes: Vec::new(),
        datos: Vec::new(),
        problemas: Vec::new(),
    };
    // En modo completo, una orden tras otra: cada medida tiene la máquina para
    // ella sola. En modo rápido no se mide en serio: van de tres en tres.
    let ejecutar = |orden: &str| {
        let partes = orden_ejecutable(orden, rapido);
        let t = Instant::now();
        let salida = Command::new(&cargo).args(&partes[1..]).current_dir(raiz).stdin(Stdio::null()).output();
        (partes, salida, t.elapsed().as_secs_f64())
    };
    let total = ordenes.len();
    let mut hechas = Vec::new();
    if rapido {
        let (tx, rx) = std::sync::mpsc::channel();
        let siguiente = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..3 {
                let tx = tx.clone();
                let (siguiente, ordenes, ejecutar) = (&siguiente, &ordenes, &ejecutar);
                s.spawn(move || {
                    loop {
                        let i = siguiente.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((_, orden)) = ordenes.get(i) else { break };
                        let _ = tx.send((i, ejecutar(orden)));
                    }
                });
            }
            drop(tx);
            for (n, (i, hecha)) in rx.iter().enumerate() {
                progreso(&format!("[{}/{total}] {}", n + 1, hecha.0.join(" ")));
                hechas.push((i, hecha));
            }
        });
        hechas.sort_by_key(|(i, _)| *i);
    } else {
        for (i, (_, orden)) in ordenes.iter().enumerate() {
            progreso(&format!("[{}/{total}] {}", i + 1, orden_ejecutable(orden, rapido).join(" ")));
            hechas.push((i, ejecutar(orden)));
        }
    }
    let mut salidas: BTreeMap<String, String> = BTreeMap::new();
    for (i, (partes, salida, segundos)) in hechas {
        let (capitulo, orden) = &ordenes[i];
        let salida = salida.map_err(|e| format!("no puedo ejecutar «{orden}»: {e}"))?;
        let texto = format!("{}{}", String::from_utf8_lossy(&salida.stdout), String::from_utf8_lossy(&salida.stderr));
        let archivo = carpeta.join(format!("{:02}-{}.txt", i + 1, paquete_de(orden).unwrap_or("orden")));
        fs::write(&archivo, format!("$ {}\n{texto}", partes.join(" "))).map_err(|e| e.to_string())?;
        if !salida.status.success() {
            resultados.problemas.push(format!(
                "«{}» acabó con {}; mira {}",
                partes.join(" "),
                salida.status,
                archivo.display()
            ));
        }
        resultados.ordenes.push(Ejecucion {
            capitulo: capitulo.clone(),
            orden: orden.clone(),
            ejecutada: partes.join(" "),
            segundos,
            correcta: salida.status.success(),
            salida: archivo.strip_prefix(raiz).unwrap_or(&archivo).display().to_string(),
        });
        salidas.insert(orden.clone(), texto);
    }
    for r in &registros {
        for d in r.datos.iter().filter(|d| d.tipo == "medido") {
            let orden = d.orden.clone().unwrap_or_default();
            let aqui = d.linea.as_ref().and_then(|l| {
                salidas
                    .get(&orden)
                    .and_then(|s| s.lines().find(|x| x.contains(l.as_str())))
                    .map(|x| x.trim().to_string())
            });
            if let (Some(l), None) = (&d.linea, &aqui) {
                resultados.problemas.push(format!(
                    "{}: la salida de «{orden}» no tiene ninguna línea con «{l}» («{}»)",
                    r.ruta(),
                    d.valores.join(", ")
                ));
            }
            resultados.datos.push(Lectura {
                capitulo: r.capitulo.clone(),
                que: d.que.clone(),
                referencia: d.valores.clone(),
                orden,
                linea: d.linea.clone(),
                aqui,
            });
        }
    }
    resultados.segundos = inicio.elapsed().as_secs_f64();
    let json = serde_json::to_string_pretty(&resultados).map_err(|e| e.to_string())?;
    fs::write(carpeta.join("resultados.json"), json).map_err(|e| e.to_string())?;
    Ok(resultados)
}

/// Los programas que dibujan las gráficas: cada `src/bin/grafica-*.rs` de
/// una lección, como `(paquete, programa)`.
pub fn programas_de_graficas(raiz: &Path) -> Vec<(String, String)> {
    let mut v = Vec::new();
    for capitulo in crate::libro::capitulos(raiz) {
        let bins = raiz.join("lessons").join(&capitulo).join("src/bin");
        let mut nombres: Vec<String> = fs::read_dir(&bins)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.starts_with("grafica-") && n.ends_with(".rs"))
            .map(|n| n.trim_end_matches(".rs").to_string())
            .collect();
        nombres.sort();
        for n in nombres {
            v.push((format!("leccion-{}", &capitulo[..2]), n));
        }
    }
    v
}

/// Vuelve a dibujar cada gráfica del libro a partir de los resultados
/// guardados en las lecciones (`lessons/NN-tema/resultados/`). Cada una va a
/// `book/graficas/NOMBRE.svg` (el programa es `grafica-NOMBRE`), o a
/// `destino/NOMBRE.svg` si se da otra carpeta. Devuelve las rutas escritas.
pub fn dibujar(raiz: &Path, destino: Option<&Path>, mut progreso: impl FnMut(&str)) -> Result<Vec<PathBuf>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let carpeta = destino.map_or_else(|| raiz.join("book/graficas"), Path::to_path_buf);
    let mut hechas = Vec::new();
    for (paquete, programa) in programas_de_graficas(raiz) {
        let svg = carpeta.join(format!("{}.svg", programa.trim_start_matches("grafica-")));
        progreso(&format!("cargo run -p {paquete} --bin {programa}"));
        let salida = Command::new(&cargo)
            .args(["run", "-q", "-p", &paquete, "--bin", &programa, "--", "--svg"])
            .arg(&svg)
            .current_dir(raiz)
            .output()
            .map_err(|e| format!("no puedo ejecutar cargo: {e}"))?;
        if !salida.status.success() {
            return Err(format!(
                "«cargo run -p {paquete} --bin {programa}» falló:\n{}",
                String::from_utf8_lossy(&salida.stderr)
            ));
        }
        hechas.push(svg);
    }
    Ok(hechas)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn extrae_numeros_con_unidad_de_la_prosa() {
        let texto = "Un hilo ocupa 9,7 KiB y 21 121,9 MiB virtuales; tarda 10 ms.\n\
                     ```rust\nlet x = 10 ms;\n```\n\
                     Con `sleep(5 ms)` y [enlace](a-3 s.md), 64 bytes, 39 veces, el 99 % y 10x.\n\
                     **Tiempo estimado:** 60 minutos.\n\
                     Capítulo 3, versión 1.54, p99 y x86_64: nada. Pero 1.8 KiB sí, y también 13,9\n  KiB partido.";
        let v: Vec<String> = valores_de_la_prosa(texto).into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            v,
            ["9,7 KiB", "21 121,9 MiB", "10 ms", "64 bytes", "39 veces", "99 %", "10x", "1.8 KiB", "13,9 KiB"]
        );
    }

    #[test]
    fn las_razones_se_calculan_en_la_misma_magnitud() {
        assert_eq!(cuantas_veces("6,8 µs", "149 ns").map(|x| (x * 10.0).round()), Some(456.0));
        assert_eq!(cuantas_veces("1 MiB", "1 KiB"), Some(1024.0));
        assert_eq!(cuantas_veces("21 121,9 MiB", "21 121,9 MiB"), Some(1.0));
        assert_eq!(cuantas_veces("1 ms", "1 KiB"), None);
        assert_eq!(con_coma(45.637), "45,6");
        assert_eq!(con_coma(1.3799), "1,38");
    }

    #[test]
    fn la_orden_rapida_quita_release_y_anade_rapido() {
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-02 --bin eco -- --hilos 10", true).join(" "),
            "cargo run -q -p leccion-02 --bin eco -- --hilos 10 --rapido"
        );
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-06", true).join(" "),
            "cargo run -q -p leccion-06 -- --rapido"
        );
        assert_eq!(
            orden_ejecutable("cargo run --release -p leccion-06", false).join(" "),
            "cargo run -q --release -p leccion-06"
        );
        assert_eq!(paquete_de("cargo run --release -p leccion-06 -- -p x"), Some("leccion-06"));
    }
}
