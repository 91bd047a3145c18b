//! Respuesta incorrecta plausible: multiplica los KiB por 1024 sin mirar si
//! cabe. Con los valores de siempre funciona; con un número enorme, la
//! multiplicación desborda y el programa entra en pánico.

/// Lo que la lección del capítulo lee de `/proc/self/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estado {
    /// `VmSize`, en bytes: el espacio de direcciones reservado.
    pub virtual_: u64,
    /// `VmRSS`, en bytes: la memoria física que el proceso tiene ahora.
    pub residente: u64,
    /// `Threads`: hilos vivos (un número, sin unidad).
    pub hilos: u64,
}

/// El valor del campo `nombre`, sin espacios alrededor.
pub fn campo<'a>(texto: &'a str, nombre: &str) -> Option<&'a str> {
    texto.lines().find_map(|linea| {
        let (clave, valor) = linea.split_once(':')?;
        (clave == nombre).then(|| valor.trim())
    })
}

/// «2048 kB» en bytes (2048 × 1024).
pub fn en_bytes(valor: &str) -> Option<u64> {
    let numero = valor.strip_suffix("kB")?.trim();
    let kib: u64 = numero.parse().ok()?;
    Some(kib * 1024)
}

/// Lee `VmSize`, `VmRSS` y `Threads`.
pub fn lee(texto: &str) -> Result<Estado, String> {
    let bytes = |nombre: &str| {
        let valor = campo(texto, nombre).ok_or(format!("falta el campo {nombre}"))?;
        en_bytes(valor).ok_or(format!("el campo {nombre} no está en kB: «{valor}»"))
    };
    let hilos = campo(texto, "Threads").ok_or("falta el campo Threads")?;
    Ok(Estado {
        virtual_: bytes("VmSize")?,
        residente: bytes("VmRSS")?,
        hilos: hilos.parse().map_err(|_| format!("el campo Threads no es un número: «{hilos}»"))?,
    })
}

/// Cuánta memoria virtual y residente añadió cada hilo nuevo entre dos fotos.
pub fn por_hilo(antes: &Estado, despues: &Estado) -> Option<(u64, u64)> {
    let nuevos = despues.hilos.checked_sub(antes.hilos).filter(|n| *n > 0)?;
    Some((
        despues.virtual_.saturating_sub(antes.virtual_) / nuevos,
        despues.residente.saturating_sub(antes.residente) / nuevos,
    ))
}
