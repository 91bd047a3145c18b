//! Respuesta incorrecta plausible: busca el campo con `starts_with`, así
//! que «Rss» encuentra la línea de «RssAnon». Y reparte la memoria entre
//! todos los hilos, no entre los nuevos.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estado {
    pub virtual_: u64,
    pub residente: u64,
    pub hilos: u64,
}

pub fn campo<'a>(texto: &'a str, nombre: &str) -> Option<&'a str> {
    let linea = texto.lines().find(|l| l.starts_with(nombre))?;
    Some(linea.split_once(':')?.1.trim())
}

pub fn en_bytes(valor: &str) -> Option<u64> {
    let kib: u64 = valor.strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib * 1024)
}

pub fn lee(texto: &str) -> Result<Estado, String> {
    let bytes = |nombre: &str| campo(texto, nombre).and_then(en_bytes).ok_or(format!("falta el campo {nombre}"));
    let hilos = campo(texto, "Threads").and_then(|h| h.parse().ok()).ok_or("falta el campo Threads")?;
    Ok(Estado { virtual_: bytes("VmSize")?, residente: bytes("VmRSS")?, hilos })
}

pub fn por_hilo(antes: &Estado, despues: &Estado) -> Option<(u64, u64)> {
    if despues.hilos <= antes.hilos {
        return None;
    }
    Some((
        despues.virtual_.saturating_sub(antes.virtual_) / despues.hilos,
        despues.residente.saturating_sub(antes.residente) / despues.hilos,
    ))
}
