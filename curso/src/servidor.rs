//! Un servidor HTTP estático y mínimo para leer el libro en local
//! (`http://127.0.0.1:3000`). Solo escucha en la interfaz de loopback.

use std::path::{Path, PathBuf};

use tiny_http::{Header, Response, Server};

/// Sirve `carpeta` en `127.0.0.1:puerto` hasta que se interrumpa el proceso.
pub fn servir(carpeta: &Path, puerto: u16) -> Result<(), String> {
    let servidor = escuchar(puerto)?;
    println!("El libro está en http://127.0.0.1:{puerto}/  (Ctrl+C para terminar)");
    atender(servidor, carpeta, "/");
    Ok(())
}

/// Abre el puerto (0: uno libre cualquiera) solo en loopback.
pub fn escuchar(puerto: u16) -> Result<Server, String> {
    Server::http(("127.0.0.1", puerto))
        .map_err(|e| format!("no puedo escuchar en 127.0.0.1:{puerto}: {e}; prueba con --puerto OTRO"))
}

/// Atiende peticiones para siempre. Las URL deben empezar por `base`
/// (`/` en local; `/repositorio/` en GitHub Pages).
pub fn atender(servidor: Server, carpeta: &Path, base: &str) {
    // Una petición por hilo: si una respuesta tarda en escribirse (el
    // navegador aún no la lee), las demás no esperan detrás de ella.
    std::thread::scope(|hilos| {
        for peticion in servidor.incoming_requests() {
            hilos.spawn(move || responder(peticion, carpeta, base));
        }
    });
}

fn responder(peticion: tiny_http::Request, carpeta: &Path, base: &str) {
    let ruta = peticion.url().strip_prefix(base.trim_end_matches('/')).and_then(|resto| {
        let resto = if resto.is_empty() { "/" } else { resto };
        resto.starts_with('/').then(|| archivo_para(carpeta, resto)).flatten()
    });
    let respuesta = match ruta.as_ref().and_then(|r| std::fs::read(r).ok().map(|b| (r, b))) {
        Some((r, bytes)) => Response::from_data(bytes).with_header(tipo(r)).with_status_code(200),
        None => {
            let bytes = std::fs::read(carpeta.join("404.html")).unwrap_or_else(|_| b"404".to_vec());
            Response::from_data(bytes).with_header(tipo(Path::new("404.html"))).with_status_code(404)
        }
    };
    let _ = peticion.respond(respuesta);
}

/// El archivo que corresponde a una URL, sin salir de `carpeta`.
pub fn archivo_para(carpeta: &Path, url: &str) -> Option<PathBuf> {
    let camino = url.split(['?', '#']).next().unwrap_or("/");
    let camino = decodificar(camino);
    let mut ruta = carpeta.to_path_buf();
    for parte in camino.split('/').filter(|p| !p.is_empty()) {
        if parte == ".." || parte.contains('\\') {
            return None;
        }
        ruta.push(parte);
    }
    if ruta.is_dir() {
        ruta.push("index.html");
    }
    ruta.is_file().then_some(ruta)
}

/// Decodifica `%C3%B3` y similares.
fn decodificar(texto: &str) -> String {
    let bytes = texto.as_bytes();
    let mut salida = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                salida.push(b);
                i += 3;
                continue;
            }
        }
        salida.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&salida).into_owned()
}

fn tipo(ruta: &Path) -> Header {
    let tipo = match ruta.extension().and_then(|e| e.to_str()).unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "txt" | "rs" | "toml" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Header::from_bytes("Content-Type", tipo).expect("cabecera válida")
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn no_sale_de_la_carpeta() {
        let carpeta = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(archivo_para(carpeta, "/../Cargo.toml").is_none());
        assert!(archivo_para(carpeta, "/Cargo.toml").is_some());
        assert!(archivo_para(carpeta, "/src/lib.rs?x=1#y").is_some());
        assert_eq!(decodificar("/a%20b"), "/a b");
        assert_eq!(decodificar("/c%C3%B3mo"), "/cómo");
    }
}
