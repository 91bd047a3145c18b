//! Respuesta incorrecta plausible: toma «kB» al pie de la letra y
//! multiplica por 1000. El resto está bien.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estado {
    pub virtual_: u64,
    pub residente: u64,
    pub hilos: u64,
}

pub fn campo<'a>(texto: &'a str, nombre: &str) -> Option<&'a str> {
    texto.lines().find_map(|linea| {
        let (clave, valor) = linea.split_once(':')?;
        (clave == nombre).then(|| valor.trim())
    })
}

pub fn en_bytes(valor: &str) -> Option<u64> {
    let kb: u64 = valor.strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1000)
}

pub fn lee(texto: &str) -> Result<Estado, String> {
    let bytes = |nombre: &str| campo(texto, nombre).and_then(en_bytes).ok_or(format!("falta el campo {nombre}"));
    let hilos = campo(texto, "Threads").and_then(|h| h.parse().ok()).ok_or("falta el campo Threads")?;
    Ok(Estado { virtual_: bytes("VmSize")?, residente: bytes("VmRSS")?, hilos })
}

pub fn por_hilo(antes: &Estado, despues: &Estado) -> Option<(u64, u64)> {
    let nuevos = despues.hilos.checked_sub(antes.hilos).filter(|n| *n > 0)?;
    Some((
        despues.virtual_.saturating_sub(antes.virtual_) / nuevos,
        despues.residente.saturating_sub(antes.residente) / nuevos,
    ))
}
