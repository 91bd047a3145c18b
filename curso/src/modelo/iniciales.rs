//! El código inicial de cada ejercicio, tal como lo publica el curso.
//!
//! Cuando trabajas un ejercicio, cambias su archivo en `exercises/`. Pero las
//! comprobaciones del curso y `cargo curso reinicia` necesitan el original.
//! `exercises/iniciales.toml` guarda, por ejercicio, el hash git (de *blob*)
//! de su archivo inicial; con él, `git cat-file` recupera el original aunque
//! hayas cambiado el archivo o hecho commits encima.
//!
//! Quien mantiene el curso y cambia un código inicial lo vuelve a fijar con
//! `cargo curso mantenimiento fija-iniciales`. En la integración continua (variable `CI`),
//! un archivo que no coincide con su hash es un error.

use std::collections::BTreeMap;
use std::path::Path;

use super::ejercicios::Ejercicio;
use crate::error::Error;
use crate::procesos::Proceso;

/// El archivo con los hashes, relativo a la raíz.
pub const INICIALES: &str = "exercises/iniciales.toml";

/// Nombre del ejercicio → hash git de su código inicial.
pub type Hashes = BTreeMap<String, String>;

/// El hash que git da a un archivo con este contenido (`git hash-object`).
pub fn hash_git(contenido: &[u8]) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(format!("blob {}\0", contenido.len()).as_bytes());
    h.update(contenido);
    h.digest().to_string()
}

/// Lee `exercises/iniciales.toml`.
pub fn leer(raiz: &Path) -> Result<Hashes, Error> {
    let texto = std::fs::read_to_string(raiz.join(INICIALES)).map_err(|e| {
        Error::Inicial(format!("no puedo leer {INICIALES}: {e}; créalo con `cargo curso mantenimiento fija-iniciales`"))
    })?;
    toml::from_str(&texto).map_err(|e| Error::formato(INICIALES, e))
}

/// Escribe `exercises/iniciales.toml` con los archivos tal como están ahora.
pub fn fijar(raiz: &Path, lista: &[Ejercicio]) -> Result<usize, Error> {
    let mut texto = String::from(
        "# Generado por `cargo curso mantenimiento fija-iniciales`: el hash git del código inicial\n\
         # de cada ejercicio. No lo edites a mano.\n",
    );
    for e in lista {
        let ruta = raiz.join(e.ruta());
        let contenido = std::fs::read(&ruta).map_err(|err| Error::leer(&ruta, err))?;
        texto.push_str(&format!("{} = \"{}\"\n", e.nombre, hash_git(&contenido)));
    }
    std::fs::write(raiz.join(INICIALES), texto).map_err(|e| Error::escribir(INICIALES, e))?;
    Ok(lista.len())
}

/// El contenido inicial del archivo de un ejercicio: el archivo actual si no
/// ha cambiado, o el original que guarda git.
pub fn contenido(raiz: &Path, e: &Ejercicio, hashes: &Hashes) -> Result<Vec<u8>, Error> {
    let esperado = hashes.get(&e.nombre).ok_or_else(|| {
        Error::Inicial(format!(
            "«{}» no está en {INICIALES}; ejecuta `cargo curso mantenimiento fija-iniciales`",
            e.nombre
        ))
    })?;
    if let Ok(actual) = std::fs::read(raiz.join(e.ruta()))
        && &hash_git(&actual) == esperado
    {
        return Ok(actual);
    }
    let salida = Proceso::git(raiz)
        .args(["cat-file", "blob", esperado])
        .salida()
        .map_err(|_| Error::Inicial(format!("no encuentro el código inicial de «{}»: hace falta git", e.nombre)))?;
    if salida.exito() && &hash_git(&salida.stdout) == esperado {
        Ok(salida.stdout)
    } else {
        Err(Error::Inicial(format!(
            "no encuentro el código inicial de «{}» (hash {esperado}) en el repositorio git",
            e.nombre
        )))
    }
}

/// ¿Sigue el archivo del ejercicio tal como se publicó?
pub fn sin_tocar(raiz: &Path, e: &Ejercicio, hashes: &Hashes) -> bool {
    std::fs::read(raiz.join(e.ruta())).is_ok_and(|c| hashes.get(&e.nombre) == Some(&hash_git(&c)))
}
