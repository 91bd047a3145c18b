//! Lo que usa `cargo curso` mientras practicas: el estado de cada ejercicio,
//! ejecutar sus pruebas ([`pruebas`]) y resumir el resultado en español.
//!
//! El progreso nunca miente: un ejercicio sin tocar está pendiente (las
//! comprobaciones del curso demuestran que su código inicial falla), y para
//! los demás se guarda el resultado de la última verificación junto con el
//! hash del archivo verificado. Si cambias el archivo, el resultado guardado
//! deja de valer. El archivo `.curso/progreso.toml` se puede borrar sin
//! perder nada más que ese recuerdo.

pub mod pantalla;
pub mod pruebas;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use pruebas::{Resultado, SALIDA_COMPLETA, errores_de_compilacion, probar, probar_todos};

use crate::error::Error;
use crate::modelo::{Curso, Ejercicio};

/// Dónde guarda `cargo curso` su estado, relativo a la raíz (fuera de git).
pub const CARPETA: &str = ".curso";

/// Dónde guarda `cargo curso reinicia` tu versión de un ejercicio antes de
/// devolverlo a su código inicial, relativo a la raíz (fuera de git). Está
/// aparte del progreso: borrar `.curso/` no la toca.
pub const COPIAS: &str = "mis-copias";

/// El estado de un ejercicio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Estado {
    /// Sin tocar: su código inicial.
    Pendiente,
    /// Cambiado desde la última verificación (o nunca verificado).
    SinComprobar,
    /// La última verificación de este mismo archivo falló.
    Falla,
    /// La última verificación de este mismo archivo pasó.
    Hecho,
}

impl Estado {
    pub fn etiqueta(self) -> &'static str {
        match self {
            Estado::Pendiente => "pendiente",
            Estado::SinComprobar => "sin comprobar",
            Estado::Falla => "falla",
            Estado::Hecho => "hecho",
        }
    }
    pub fn marca(self) -> &'static str {
        match self {
            Estado::Pendiente => "·",
            Estado::SinComprobar => "?",
            Estado::Falla => "✘",
            Estado::Hecho => "✔",
        }
    }
}

/// `.curso/progreso.toml`: el resultado de la última verificación de cada
/// ejercicio, con el hash del archivo verificado.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Progreso {
    /// El último ejercicio que verificaste o del que pediste una pista: es
    /// donde estás.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    actual: Option<String>,
    #[serde(default)]
    ejercicio: BTreeMap<String, Entrada>,
    /// Cuántas pistas has visto de cada ejercicio.
    #[serde(default)]
    pistas: BTreeMap<String, usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entrada {
    hash: String,
    paso: bool,
}

fn ruta_progreso(raiz: &Path) -> PathBuf {
    raiz.join(CARPETA).join("progreso.toml")
}

fn leer_progreso(raiz: &Path) -> Progreso {
    std::fs::read_to_string(ruta_progreso(raiz)).ok().and_then(|t| toml::from_str(&t).ok()).unwrap_or_default()
}

fn guardar_progreso(raiz: &Path, progreso: &Progreso) -> Result<(), Error> {
    let ruta = ruta_progreso(raiz);
    std::fs::create_dir_all(raiz.join(CARPETA)).map_err(|e| Error::crear(format!("{CARPETA}/"), e))?;
    let texto = format!(
        "# Progreso de `cargo curso`. Puedes borrarlo: solo olvida las últimas verificaciones\n\
         # (`cargo curso verifica --todos` lo rehace). Tus copias están aparte, en {COPIAS}/.\n{}",
        toml::to_string(progreso).expect("el progreso siempre se puede escribir en TOML")
    );
    std::fs::write(&ruta, texto).map_err(|e| Error::escribir(ruta, e))
}

/// El progreso de quien aprende, leído una vez: lo guardado en
/// `.curso/progreso.toml` y el estado de cada ejercicio del curso.
pub struct Practica<'a> {
    pub curso: &'a Curso,
    progreso: Progreso,
    /// El estado de cada ejercicio, en el orden de `curso.ejercicios`.
    estados: Vec<Estado>,
}

impl<'a> Practica<'a> {
    /// Lee el progreso guardado y mira cada archivo de ejercicio una vez.
    pub fn abrir(curso: &'a Curso) -> Practica<'a> {
        let progreso = leer_progreso(&curso.raiz);
        let estados = curso.ejercicios.iter().map(|e| estado(curso, &progreso, e)).collect();
        Practica { curso, progreso, estados }
    }

    /// El estado de cada ejercicio, en el orden de `curso.ejercicios`.
    pub fn estados(&self) -> &[Estado] {
        &self.estados
    }

    /// El estado de un ejercicio del curso.
    pub fn estado(&self, e: &Ejercicio) -> Estado {
        self.curso.posicion(e).map_or(Estado::SinComprobar, |i| self.estados[i])
    }

    /// El siguiente ejercicio que no está hecho desde donde estás: el
    /// actual si aún no lo has superado, luego los que le siguen en su
    /// capítulo, luego los capítulos siguientes y, al final, los anteriores.
    pub fn siguiente(&self) -> Option<&'a Ejercicio> {
        let desde = self.actual().and_then(|e| self.curso.posicion(e)).unwrap_or(0);
        siguiente_desde(&self.estados, desde).map(|i| &self.curso.ejercicios[i])
    }

    /// El ejercicio donde estás (el último que verificaste o del que pediste
    /// una pista), si existe todavía.
    pub fn actual(&self) -> Option<&'a Ejercicio> {
        self.progreso.actual.as_deref().and_then(|n| self.curso.ejercicio(n))
    }

    /// La lista de ejercicios con su estado (ver [`listado`]), con una marca
    /// en el siguiente.
    pub fn listado(&self, completo: bool) -> String {
        let marca = self.siguiente().and_then(|e| self.curso.posicion(e));
        listado(&self.curso.ejercicios, &self.estados, completo, marca)
    }

    /// Cuántas pistas has visto de un ejercicio.
    pub fn pistas_vistas(&self, e: &Ejercicio) -> usize {
        self.progreso.pistas.get(&e.nombre).copied().unwrap_or(0).min(e.pistas.len())
    }

    /// Anota que has visto las `n` primeras pistas de `e` (nunca baja) y que
    /// estás en `e`; lo guarda.
    pub fn ver_pistas(&mut self, e: &Ejercicio, n: usize) -> Result<(), Error> {
        let vistas = self.progreso.pistas.entry(e.nombre.clone()).or_default();
        *vistas = (*vistas).max(n.min(e.pistas.len()));
        self.progreso.actual = Some(e.nombre.clone());
        guardar_progreso(&self.curso.raiz, &self.progreso)
    }

    /// Anota el resultado de verificar cada ejercicio con su archivo actual,
    /// de una vez, y lo guarda.
    pub fn anotar(&mut self, resultados: &[(&Ejercicio, bool)]) -> Result<(), Error> {
        if let [(e, _)] = resultados {
            self.progreso.actual = Some(e.nombre.clone());
        }
        for (e, paso) in resultados {
            match self.curso.hash_actual(e) {
                Some(hash) => self.progreso.ejercicio.insert(e.nombre.clone(), Entrada { hash, paso: *paso }),
                None => self.progreso.ejercicio.remove(&e.nombre),
            };
            if let Some(i) = self.curso.posicion(e) {
                self.estados[i] = estado(self.curso, &self.progreso, e);
            }
        }
        guardar_progreso(&self.curso.raiz, &self.progreso)
    }
}

/// El estado de un ejercicio según su archivo actual y el progreso guardado.
fn estado(curso: &Curso, progreso: &Progreso, e: &Ejercicio) -> Estado {
    let actual = curso.hash_actual(e);
    if actual.is_some() && actual.as_ref() == curso.hash_inicial(e) {
        return Estado::Pendiente;
    }
    match progreso.ejercicio.get(&e.nombre) {
        Some(r) if Some(&r.hash) == actual.as_ref() && r.paso => Estado::Hecho,
        Some(r) if Some(&r.hash) == actual.as_ref() => Estado::Falla,
        _ => Estado::SinComprobar,
    }
}

/// Olvida el resultado guardado de un ejercicio.
fn olvidar(curso: &Curso, e: &Ejercicio) -> Result<(), Error> {
    let mut progreso = leer_progreso(&curso.raiz);
    if progreso.ejercicio.remove(&e.nombre).is_some() {
        guardar_progreso(&curso.raiz, &progreso)?;
    }
    Ok(())
}

/// El primer ejercicio que no está hecho, empezando en `desde` y dando la
/// vuelta al final.
pub fn siguiente_desde(estados: &[Estado], desde: usize) -> Option<usize> {
    let n = estados.len();
    (0..n).map(|k| (desde + k) % n).find(|&i| estados[i] != Estado::Hecho)
}

/// Busca un ejercicio por nombre; si no existe, sugiere los más parecidos.
pub fn buscar<'a>(curso: &'a Curso, nombre: &str) -> Result<&'a Ejercicio, Error> {
    if let Some(e) = curso.ejercicio(nombre) {
        return Ok(e);
    }
    let mut parecidos: Vec<(f64, &str)> = curso
        .ejercicios
        .iter()
        .map(|e| (strsim::normalized_damerau_levenshtein(nombre, &e.nombre), e.nombre.as_str()))
        .filter(|(s, _)| *s > 0.4)
        .collect();
    parecidos.sort_by(|a, b| b.0.total_cmp(&a.0));
    let sugerencia = match parecidos.first() {
        Some((_, n)) => format!("; ¿quisiste decir «{n}»?"),
        None => "; míralos con `cargo curso lista`".to_string(),
    };
    Err(Error::mensaje(format!("no hay ningún ejercicio llamado «{nombre}»{sugerencia}")))
}

/// La lista de ejercicios con su estado; `completo` añade los capítulos, los
/// títulos y la barra de progreso.
pub fn listado(lista: &[Ejercicio], estados: &[Estado], completo: bool, siguiente: Option<usize>) -> String {
    let mut texto = String::new();
    let mut capitulo = "";
    for (i, (e, estado)) in lista.iter().zip(estados).enumerate() {
        let aqui = if siguiente == Some(i) { "  ← siguiente" } else { "" };
        if !completo {
            texto.push_str(&format!("  {} {:<14} {}{aqui}\n", estado.marca(), estado.etiqueta(), e.nombre));
            continue;
        }
        if e.capitulo != capitulo {
            capitulo = &e.capitulo;
            texto.push_str(&format!("\nCapítulo {capitulo}  (cargo test -p {})\n", e.paquete()));
        }
        let compilar = if e.compilar { "  [haz que compile]".to_string() } else { String::new() };
        let compilar =
            if e.requiere.is_empty() { compilar } else { format!("{compilar}  [antes: {}]", e.requiere.join(", ")) };
        texto.push_str(&format!(
            "  {} {:<14} {:<16} {}{compilar}{aqui}\n",
            estado.marca(),
            estado.etiqueta(),
            e.nombre,
            e.titulo
        ));
    }
    let hechos = estados.iter().filter(|e| **e == Estado::Hecho).count();
    if completo {
        texto.push_str(&format!("\nProgreso: {}\n", barra(hechos, lista.len())));
    } else {
        texto.push_str(&format!("Progreso: {}\n", barra(hechos, lista.len())));
    }
    texto
}

/// La copia que guardaría `reiniciar`, o `None` si el ejercicio ya tiene su
/// código inicial.
pub fn copia_para_reiniciar(curso: &Curso, e: &Ejercicio) -> Result<Option<PathBuf>, Error> {
    curso.iniciales()?;
    if curso.sin_tocar(e) {
        return Ok(None);
    }
    // La fecha y la hora locales: `junta-2026-12-02-1735.rs`; si ya hay una
    // copia de ese minuto, con los segundos.
    let ahora = jiff::ZonedDateTime::now();
    let copias = curso.ruta(COPIAS);
    let minuto = copias.join(format!("{}-{}.rs", e.nombre, ahora.strftime("%Y-%m-%d-%H%M")));
    if !minuto.exists() {
        return Ok(Some(minuto));
    }
    Ok(Some(copias.join(format!("{}-{}.rs", e.nombre, ahora.strftime("%Y-%m-%d-%H%M%S")))))
}

/// Guarda el archivo del ejercicio en `copia` y lo devuelve a su código inicial.
pub fn reiniciar(curso: &Curso, e: &Ejercicio, copia: &Path) -> Result<(), Error> {
    let original = curso.contenido_inicial(e)?;
    let ruta = curso.ruta(e.ruta());
    if let Some(carpeta) = copia.parent() {
        std::fs::create_dir_all(carpeta).map_err(|err| Error::crear(carpeta, err))?;
    }
    if ruta.exists() {
        std::fs::copy(&ruta, copia)
            .map_err(|err| Error::mensaje(format!("no puedo guardar la copia: {err}; no he cambiado nada")))?;
    }
    std::fs::write(&ruta, original).map_err(|err| Error::escribir(&ruta, err))?;
    olvidar(curso, e)
}

/// Una barra de progreso: `[########------------] 4/10`.
pub fn barra(hechos: usize, total: usize) -> String {
    let ancho = 20;
    let llenos = (hechos * ancho).checked_div(total).unwrap_or(0);
    format!("[{}{}] {hechos}/{total}", "#".repeat(llenos), "-".repeat(ancho - llenos))
}

#[cfg(test)]
mod prueba {
    use super::*;

    #[test]
    fn barra_de_progreso() {
        assert_eq!(barra(0, 4), "[--------------------] 0/4");
        assert_eq!(barra(2, 4), "[##########----------] 2/4");
        assert_eq!(barra(4, 4), "[####################] 4/4");
        assert_eq!(barra(0, 0), "[--------------------] 0/0");
    }
}
