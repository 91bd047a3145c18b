//! La pantalla de un ejercicio que falla: lo que dice libtest, ordenado para
//! quien aprende. Arriba, en cada prueba que falla, el mensaje del curso (el
//! de la aserción de la prueba); debajo, dónde se rompió, como una ruta de
//! `exercises/` y con los pánicos repetidos juntados en una línea. Nunca una
//! ruta de `solutions/`: el andamiaje que vive allí se nombra como tal. La
//! pantalla cabe en una terminal; la salida entera va a un archivo.

use std::collections::BTreeMap;
use std::path::Path;

use crate::modelo::{Curso, Ejercicio, normalizar};

/// Cuántas pruebas que fallan se muestran enteras; las demás, solo por nombre.
pub const PRUEBAS_ENTERAS: usize = 3;
/// Cuántas líneas del mensaje de cada prueba, como mucho.
const LINEAS_DE_MENSAJE: usize = 8;
/// Cuántos lugares distintos de pánico por prueba, como mucho.
const LUGARES: usize = 3;

/// Un pánico de la salida de una prueba.
#[derive(Debug, Clone, PartialEq)]
pub struct Panico {
    pub hilo: String,
    /// `archivo:línea:columna`, tal como lo escribe Rust.
    pub lugar: String,
    pub mensaje: Vec<String>,
}

/// Una prueba que falla, con sus pánicos en orden.
#[derive(Debug, Clone, PartialEq)]
pub struct Fallo {
    pub prueba: String,
    pub panicos: Vec<Panico>,
}

/// Cada prueba que falla en una salida de libtest, con sus pánicos.
pub fn fallos(salida: &str) -> Vec<Fallo> {
    let mut fallos: Vec<Fallo> = Vec::new();
    let mut en_fallo = false;
    for linea in salida.lines() {
        if let Some(nombre) = linea.strip_prefix("---- ").and_then(|l| l.strip_suffix(" stdout ----")) {
            fallos.push(Fallo { prueba: nombre.to_string(), panicos: Vec::new() });
            en_fallo = true;
            continue;
        }
        if linea == "failures:" || linea.starts_with("test result:") {
            en_fallo = false;
            continue;
        }
        let Some(fallo) = fallos.last_mut().filter(|_| en_fallo) else { continue };
        if let Some((hilo, lugar)) = cabecera_de_panico(linea) {
            fallo.panicos.push(Panico { hilo, lugar, mensaje: Vec::new() });
            continue;
        }
        let Some(panico) = fallo.panicos.last_mut() else { continue };
        if linea.starts_with("note: ") || linea.starts_with("stack backtrace") {
            continue;
        }
        panico.mensaje.push(linea.to_string());
    }
    for f in &mut fallos {
        for p in &mut f.panicos {
            while p.mensaje.last().is_some_and(|l| l.trim().is_empty()) {
                p.mensaje.pop();
            }
        }
    }
    fallos
}

/// `thread 'a::b' (123) panicked at src/a.rs:1:2:` → (`a::b`, `src/a.rs:1:2`).
fn cabecera_de_panico(linea: &str) -> Option<(String, String)> {
    let resto = linea.strip_prefix("thread '")?;
    let (hilo, resto) = resto.split_once('\'')?;
    let lugar = resto.split_once("panicked at ")?.1.trim_end_matches(':');
    Some((hilo.to_string(), lugar.to_string()))
}

/// ¿Es un lugar de un archivo de pruebas (`.../tests/...`)?
fn es_de_pruebas(lugar: &str) -> bool {
    lugar.starts_with("tests/") || lugar.contains("/tests/")
}

impl Fallo {
    /// El pánico que trae el mensaje del curso: el último de la prueba
    /// (su archivo de pruebas) o, si no lo hay, el último de su hilo.
    pub fn principal(&self) -> Option<&Panico> {
        self.panicos
            .iter()
            .rev()
            .find(|p| es_de_pruebas(&p.lugar))
            .or_else(|| self.panicos.iter().rev().find(|p| p.hilo == self.prueba))
            .or(self.panicos.last())
    }

    /// Los demás pánicos, juntados por lugar y primera línea, con cuántas
    /// veces salió cada uno, en el orden en que salieron por primera vez.
    pub fn otros(&self) -> Vec<(&Panico, usize)> {
        let principal = self.principal();
        let mut vistos: Vec<(&Panico, usize)> = Vec::new();
        for p in &self.panicos {
            if principal.is_some_and(|q| std::ptr::eq(p, q)) {
                continue;
            }
            let clave = |x: &Panico| (x.lugar.clone(), x.mensaje.first().cloned());
            match vistos.iter_mut().find(|(q, _)| clave(q) == clave(p)) {
                Some((_, n)) => *n += 1,
                None => vistos.push((p, 1)),
            }
        }
        vistos
    }
}

/// El mensaje de un pánico para quien aprende: la explicación del curso
/// primero (sin el «assertion ... failed:» de delante), los valores después,
/// y los mensajes de la biblioteca estándar con su traducción.
pub fn mensaje_legible(mensaje: &[String]) -> Vec<String> {
    let mut lineas: Vec<String> = Vec::new();
    for (i, linea) in mensaje.iter().enumerate() {
        let mut l = linea.clone();
        if i == 0 {
            for prefijo in ["assertion `left == right` failed", "assertion `left != right` failed", "assertion failed"]
            {
                if let Some(resto) = l.strip_prefix(prefijo) {
                    l = match resto.strip_prefix(": ") {
                        Some(propio) => propio.to_string(),
                        None if prefijo.contains("==") => "los dos valores no coinciden".to_string(),
                        None if prefijo.contains("!=") => "los dos valores coinciden y no debían".to_string(),
                        None => format!("no se cumple: {}", resto.trim_start_matches(':').trim()),
                    };
                    break;
                }
            }
            l = traducir(&l);
        }
        lineas.push(l);
    }
    lineas
}

/// Los mensajes de pánico de la biblioteca estándar más frecuentes, con su
/// traducción entre paréntesis (el original ayuda a buscar en la web).
fn traducir(linea: &str) -> String {
    const TRADUCCIONES: &[(&str, &str)] = &[
        ("not yet implemented", "todo!(): sin hacer todavía"),
        ("attempt to add with overflow", "desbordamiento al sumar"),
        ("attempt to subtract with overflow", "desbordamiento al restar"),
        ("attempt to multiply with overflow", "desbordamiento al multiplicar"),
        ("attempt to divide by zero", "división por cero"),
        ("called `Option::unwrap()` on a `None` value", "unwrap() de un None"),
        ("called `Result::unwrap()` on an `Err` value", "unwrap() de un Err"),
        ("index out of bounds", "índice fuera de rango"),
    ];
    if let Some(resto) = linea.strip_prefix("not yet implemented: ") {
        return format!("todo!(): {resto}");
    }
    for (ingles, espanol) in TRADUCCIONES {
        if linea == *ingles && ingles.starts_with("not yet") {
            return espanol.to_string();
        }
        if linea.starts_with(ingles) {
            return format!("{linea} ({espanol})");
        }
    }
    linea.to_string()
}

/// Un lugar de pánico dicho para quien aprende: relativo a la raíz, sin
/// `..`, y nunca por `solutions/` (el andamiaje del capítulo vive allí y se
/// nombra como tal). Si es el archivo de otro ejercicio del capítulo, lo
/// dice. Los lugares de fuera del curso (Tokio, la biblioteca estándar) se
/// acortan a su crate.
pub fn lugar_legible(curso: &Curso, e: &Ejercicio, lugar: &str) -> String {
    let (archivo, linea) = match lugar.split_once(':') {
        Some((a, resto)) => (a, resto.split(':').next().unwrap_or("")),
        None => (lugar, ""),
    };
    let ruta = normalizar(Path::new(archivo));
    let ruta = ruta.strip_prefix(&curso.raiz).unwrap_or(&ruta).to_path_buf();
    let nombre = ruta.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let en = |texto: String| if linea.is_empty() { texto } else { format!("{texto}, línea {linea}") };
    if ruta.starts_with(e.carpeta_solucion()) || ruta.starts_with("solutions") {
        return en(format!("{nombre} (andamiaje del capítulo: no hace falta que lo edites)"));
    }
    if let Some(otro) = curso.ejercicios_de(&e.capitulo).find(|o| ruta == o.ruta()) {
        if otro.nombre != e.nombre {
            return en(format!("{} (el archivo de «{}», otro ejercicio del capítulo)", ruta.display(), otro.nombre));
        }
        return en(ruta.display().to_string());
    }
    if ruta.is_absolute() {
        // `~/.cargo/registry/src/.../tokio-1.54.1/src/runtime/x.rs` → `tokio-1.54.1/src/runtime/x.rs`.
        let componentes: Vec<String> = ruta.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        if let Some(i) = componentes.iter().position(|c| c == "src").filter(|i| *i > 0) {
            return en(format!("{} (fuera del curso)", componentes[i - 1..].join("/")));
        }
        return en(format!("{nombre} (fuera del curso)"));
    }
    en(ruta.display().to_string())
}

/// Las pruebas que fallan, para la pantalla. Las que fallan por lo mismo
/// (el mismo mensaje en el mismo sitio, como un `todo!()`) van juntas; se
/// muestran enteros los primeros [`PRUEBAS_ENTERAS`] grupos y del resto solo
/// los nombres. Devuelve también los otros ejercicios del capítulo de los
/// que vino algún pánico.
pub fn pintar(curso: &Curso, e: &Ejercicio, fallos: &[Fallo]) -> (String, Vec<String>) {
    let mut grupos: Vec<(String, Vec<&str>)> = Vec::new();
    let mut vecinos: Vec<String> = Vec::new();
    for f in fallos {
        let cuerpo = cuerpo(curso, e, f);
        match grupos.iter_mut().find(|(c, _)| *c == cuerpo) {
            Some((_, pruebas)) => pruebas.push(&f.prueba),
            None => grupos.push((cuerpo, vec![&f.prueba])),
        }
        for p in &f.panicos {
            let ruta = normalizar(Path::new(p.lugar.split(':').next().unwrap_or("")));
            if let Some(o) = curso.ejercicios_de(&e.capitulo).find(|o| o.nombre != e.nombre && ruta == o.ruta())
                && !vecinos.contains(&o.nombre)
            {
                vecinos.push(o.nombre.clone());
            }
        }
    }
    let mut t = String::new();
    for (cuerpo, pruebas) in grupos.iter().take(PRUEBAS_ENTERAS) {
        let nombres = match pruebas.as_slice() {
            [una] => una.to_string(),
            [primera, resto @ ..] => format!("{primera} y {} más por lo mismo: {}", resto.len(), resto.join(", ")),
            [] => String::new(),
        };
        t.push_str(&format!("\n{}", envolver(&format!("• {nombres}"), "  ", "    ")));
        t.push_str(cuerpo);
    }
    if grupos.len() > PRUEBAS_ENTERAS {
        let resto: Vec<&str> = grupos[PRUEBAS_ENTERAS..].iter().flat_map(|(_, p)| p.iter().copied()).collect();
        t.push_str(&format!("\n{}", envolver(&format!("Y {} más: {}", resto.len(), resto.join(", ")), "  ", "    ")));
    }
    (t, vecinos)
}

/// Lo que se muestra de una prueba que falla, sin su nombre.
fn cuerpo(curso: &Curso, e: &Ejercicio, f: &Fallo) -> String {
    let mut t = String::new();
    if let Some(p) = f.principal() {
        let mensaje = mensaje_legible(&p.mensaje);
        for l in mensaje.iter().take(LINEAS_DE_MENSAJE) {
            t.push_str(&format!("    {l}\n"));
        }
        if mensaje.len() > LINEAS_DE_MENSAJE {
            let mas = mensaje.len() - LINEAS_DE_MENSAJE;
            t.push_str(&format!("    (… {mas} líneas más en el archivo de la salida completa)\n"));
        }
        if !es_de_pruebas(&p.lugar) {
            t.push_str(&format!("    en {}\n", lugar_legible(curso, e, &p.lugar)));
        }
    }
    let otros = f.otros();
    for (p, veces) in otros.iter().take(LUGARES) {
        let primera = mensaje_legible(&p.mensaje).into_iter().next().unwrap_or_default();
        let lugar = lugar_legible(curso, e, &p.lugar);
        let veces = if *veces > 1 { format!(" ({} veces)", medidas::entero(*veces as u64)) } else { String::new() };
        t.push_str(&format!("    antes, un pánico en {lugar}{veces}: {primera}\n"));
    }
    if otros.len() > LUGARES {
        t.push_str(&format!("    (y pánicos en {} lugares más)\n", otros.len() - LUGARES));
    }
    t
}

/// Parte `texto` en líneas de menos de 100 columnas por los espacios: la
/// primera con `sangria`, las demás con `resto`.
fn envolver(texto: &str, sangria: &str, resto: &str) -> String {
    const ANCHO: usize = 96;
    let mut lineas: Vec<String> = vec![sangria.to_string()];
    for palabra in texto.split(' ') {
        let actual = lineas.last_mut().expect("al menos una");
        let vacia = actual.trim().is_empty();
        if !vacia && actual.chars().count() + 1 + palabra.chars().count() > ANCHO {
            lineas.push(format!("{resto}{palabra}"));
        } else {
            if !vacia {
                actual.push(' ');
            }
            actual.push_str(palabra);
        }
    }
    lineas.iter().map(|l| format!("{l}\n")).collect()
}

/// Cuántos pánicos hay de cada lugar, en toda la salida (para el archivo).
pub fn recuento(fallos: &[Fallo]) -> BTreeMap<String, usize> {
    let mut r = BTreeMap::new();
    for p in fallos.iter().flat_map(|f| &f.panicos) {
        *r.entry(p.lugar.clone()).or_default() += 1;
    }
    r
}

#[cfg(test)]
mod pruebas {
    use super::*;

    const SALIDA: &str = "\nrunning 2 tests\n..\nfailures:\n\n---- reparte::suma stdout ----\n\nthread 'reparte::suma' (77) panicked at exercises/06/src/reparte.rs:20:5:\nnot yet implemented: lanza una tarea\nnote: run with `RUST_BACKTRACE=1`\n\n---- reparte::grande stdout ----\nthread 'tokio-runtime-worker' (9) panicked at exercises/06/src/reparte.rs:17:9:\nattempt to multiply with overflow\nthread 'tokio-runtime-worker' (9) panicked at exercises/06/src/reparte.rs:17:9:\nattempt to multiply with overflow\nthread 'reparte::grande' (78) panicked at exercises/06/tests/ejercicios.rs:9:9:\nassertion `left == right` failed: con i >= 65 536, i * i no cabe en u32\n  left: 0\n right: 285\n\n\nfailures:\n    reparte::suma\n    reparte::grande\n\ntest result: FAILED. 0 passed; 2 failed\n";

    #[test]
    fn el_mensaje_del_curso_va_primero_y_los_panicos_repetidos_se_juntan() {
        let f = fallos(SALIDA);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].principal().unwrap().mensaje, ["not yet implemented: lanza una tarea"]);
        let p = f[1].principal().unwrap();
        assert_eq!(p.lugar, "exercises/06/tests/ejercicios.rs:9:9");
        let legible = mensaje_legible(&p.mensaje);
        assert_eq!(legible[0], "con i >= 65 536, i * i no cabe en u32");
        assert_eq!(legible[1], "  left: 0");
        let otros = f[1].otros();
        assert_eq!(otros.len(), 1);
        assert_eq!(otros[0].1, 2, "dos pánicos iguales, una línea");
    }

    #[test]
    fn los_mensajes_de_la_biblioteca_llevan_su_traduccion() {
        assert_eq!(traducir("not yet implemented"), "todo!(): sin hacer todavía");
        assert_eq!(traducir("not yet implemented: lanza una tarea"), "todo!(): lanza una tarea");
        assert!(traducir("attempt to multiply with overflow").ends_with("(desbordamiento al multiplicar)"));
    }
}
