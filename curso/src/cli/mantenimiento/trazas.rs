//! `cargo curso mantenimiento trazas --maquina CLAVE`: vuelve a grabar, en
//! esta máquina, cada traza registrada (`[[traza]]`) con su propia orden,
//! vuelve a dibujar sus gráficas, apunta en el registro la máquina y la
//! versión de Tokio, y comprueba que todo cuadra (también los pasos que cita
//! el capítulo, que una grabación nueva puede cambiar).

use std::path::Path;

use curso::mediciones::trazas::{self, TrazaRegistrada};
use curso::mediciones::{MAQUINAS, maquinas, paquete_de};
use curso::procesos::Proceso;
use curso::{Curso, Error};

use super::{Reescritura, contar_cambios, permitir};

pub fn trazas(raiz: &Path, maquina: &str, r: Reescritura) -> Result<(), Error> {
    let curso = Curso::cargar(raiz)?;
    let (registradas, mal) = trazas::registradas(&curso);
    if let Some(p) = mal.first() {
        return Err(Error::mensaje(p.to_string()));
    }
    if registradas.is_empty() {
        println!("Ningún registro de mediciones tiene un [[traza]]: no hay nada que grabar.");
        return Ok(());
    }
    let conocidas = maquinas(raiz)?;
    if !conocidas.contains_key(maquina) {
        let claves: Vec<&str> = conocidas.keys().map(String::as_str).collect();
        return Err(Error::mensaje(format!(
            "la máquina «{maquina}» no está en {MAQUINAS} (están: {}). Descríbela allí antes de grabar en ella",
            claves.join(", ")
        )));
    }
    let tokio =
        trazas::tokio_del_lock(raiz).ok_or_else(|| Error::mensaje("el Cargo.lock no fija ninguna versión de tokio"))?;
    let mut rutas: Vec<String> = Vec::new();
    for t in &registradas {
        rutas.extend([t.archivo.clone(), t.registro.clone(), registro_de(t)]);
        rutas.extend(t.grafica.iter().map(|g| format!("book/graficas/{g}.svg")));
    }
    rutas.sort();
    rutas.dedup();
    let rutas: Vec<&str> = rutas.iter().map(String::as_str).collect();
    let que =
        format!("volver a grabar {} trazas en «{maquina}» y reescribir {} archivos", registradas.len(), rutas.len());
    if !permitir(raiz, &rutas, &que, r)? {
        return Ok(());
    }
    for t in &registradas {
        eprintln!("… {}", t.orden);
        let partes: Vec<&str> = t.orden.split_whitespace().collect();
        if partes.first() != Some(&"cargo") {
            return Err(Error::mensaje(format!("la orden de {} no empieza por cargo: `{}`", t.archivo, t.orden)));
        }
        Proceso::cargo().args(&partes[1..]).en(raiz).con_exito()?;
        if let (Some(g), Some(paquete)) = (&t.grafica, paquete_de(&t.orden)) {
            let programa = format!("grafica-{g}");
            eprintln!("… cargo run -p {paquete} --bin {programa}");
            Proceso::cargo().args(["run", "-q", "-p", paquete, "--bin", &programa]).en(raiz).con_exito()?;
        }
        apunta(raiz, t, maquina, &tokio)?;
    }
    let problemas = trazas::comprobar(&curso);
    contar_cambios(raiz, &rutas)?;
    if !problemas.is_empty() {
        let lista: Vec<String> = problemas.iter().map(ToString::to_string).collect();
        return Err(Error::mensaje(format!(
            "las trazas nuevas no cuadran en {} cosas (corrige el capítulo o sus citas):\n- {}",
            lista.len(),
            lista.join("\n- ")
        )));
    }
    println!("Grabadas {} trazas en «{maquina}» con Tokio {tokio}; todas cuadran.", registradas.len());
    Ok(())
}

/// El registro de mediciones donde está `t`.
fn registro_de(t: &TrazaRegistrada) -> String {
    format!("lessons/{}/mediciones.toml", t.capitulo)
}

/// Apunta en el `[[traza]]` de `t` la máquina y la versión de Tokio con que
/// se acaba de grabar, sin tocar nada más del registro.
fn apunta(raiz: &Path, t: &TrazaRegistrada, maquina: &str, tokio: &str) -> Result<(), Error> {
    let ruta = raiz.join(registro_de(t));
    let texto = std::fs::read_to_string(&ruta).map_err(|e| Error::leer(&ruta, e))?;
    let nuevo = con_campos(&texto, &t.archivo, &[("maquina", maquina), ("tokio", tokio)]);
    std::fs::write(&ruta, nuevo).map_err(|e| Error::escribir(&ruta, e))
}

/// `texto` con los campos dados cambiados en el `[[traza]]` cuyo `archivo` es `archivo`.
fn con_campos(texto: &str, archivo: &str, campos: &[(&str, &str)]) -> String {
    let lineas: Vec<&str> = texto.lines().collect();
    let mut fuera = Vec::with_capacity(lineas.len());
    let mut i = 0;
    while i < lineas.len() {
        if lineas[i].trim() != "[[traza]]" {
            fuera.push(lineas[i].to_string());
            i += 1;
            continue;
        }
        // El bloque: hasta el siguiente [[...]] que no sea una cita suya.
        let fin = (i + 1..lineas.len())
            .find(|&k| lineas[k].starts_with("[[") && !lineas[k].starts_with("[[traza."))
            .unwrap_or(lineas.len());
        let suyo = lineas[i..fin].iter().any(|l| l.trim() == format!("archivo = \"{archivo}\""));
        for l in &lineas[i..fin] {
            let campo = campos.iter().find(|(c, _)| l.starts_with(&format!("{c} =")));
            match campo {
                Some((c, v)) if suyo => fuera.push(format!("{c} = \"{v}\"")),
                _ => fuera.push(l.to_string()),
            }
        }
        i = fin;
    }
    let mut s = fuera.join("\n");
    if texto.ends_with('\n') {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod pruebas {
    use super::con_campos;

    #[test]
    fn solo_cambia_los_campos_de_su_traza() {
        let texto = "[[dato]]\nmaquina = \"a\"\n\n[[traza]]\narchivo = \"x.json\"\nmaquina = \"vieja\"\ntokio = \"1.0.0\"\n\
                     [[traza.cita]]\npaso = 3\n\n[[traza]]\narchivo = \"y.json\"\nmaquina = \"vieja\"\n";
        let nuevo = con_campos(texto, "x.json", &[("maquina", "nueva"), ("tokio", "1.54.1")]);
        assert_eq!(
            nuevo,
            "[[dato]]\nmaquina = \"a\"\n\n[[traza]]\narchivo = \"x.json\"\nmaquina = \"nueva\"\ntokio = \"1.54.1\"\n\
             [[traza.cita]]\npaso = 3\n\n[[traza]]\narchivo = \"y.json\"\nmaquina = \"vieja\"\n"
        );
    }
}
