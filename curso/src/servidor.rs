//! Un servidor HTTP estático y mínimo para leer el libro en local
//! (`http://127.0.0.1:3000`). Solo escucha en la interfaz de loopback.
//!
//! Con [`servir_en_vivo`] (lo que hace `cargo libro`), además vigila las
//! fuentes del libro: cuando cambia un capítulo, un archivo incluido o un
//! registro, reconstruye el libro y recarga las páginas abiertas, como
//! `mdbook serve`. Las páginas llevan el guion de recarga de la plantilla de
//! mdbook, que abre un WebSocket a `/__livereload` y recarga al recibir
//! `reload`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use tiny_http::{Header, ReadWrite, Response, Server};

use crate::error::Error;

/// El punto de recarga: el mismo nombre que usa `mdbook serve`.
pub const RECARGA: &str = "__livereload";

/// Las carpetas (recursivas) y archivos de `raiz` cuyos cambios rehacen el
/// libro: los capítulos, lo que incluyen (lecciones, ejercicios,
/// soluciones), los registros (`mediciones.toml`, `ejercicios.toml`), el
/// tema, `book.toml`.
pub const VIGILADAS: &[&str] =
    &["book", "lessons", "exercises", "solutions", "curso/tema", "curso/mermaid", "book.toml"];

/// Las páginas abiertas que esperan el aviso de recarga (sus WebSocket).
#[derive(Clone, Default)]
pub struct Recargas(Arc<Mutex<Vec<Box<dyn ReadWrite + Send>>>>);

impl Recargas {
    /// Manda `reload` a cada página abierta y las olvida (al recargar, cada
    /// una abre otro WebSocket). Devuelve a cuántas llegó.
    pub fn avisar(&self) -> usize {
        let abiertas: Vec<_> = self.0.lock().map(|mut v| v.drain(..).collect()).unwrap_or_default();
        let mut avisadas = 0;
        for mut socket in abiertas {
            // Un marco de texto de WebSocket, completo, sin máscara: «reload».
            let enviado =
                socket.write_all(&[0x81, 6]).and_then(|_| socket.write_all(b"reload")).and_then(|_| socket.flush());
            avisadas += usize::from(enviado.is_ok());
        }
        avisadas
    }

    /// Cuántas páginas esperan ahora.
    pub fn abiertas(&self) -> usize {
        self.0.lock().map(|v| v.len()).unwrap_or(0)
    }
}

/// Sirve `carpeta` en `127.0.0.1:puerto` hasta que se interrumpa el proceso.
pub fn servir(carpeta: &Path, puerto: u16) -> Result<(), Error> {
    let servidor = escuchar(puerto)?;
    println!("El libro está en http://127.0.0.1:{puerto}/  (Ctrl+C para terminar)");
    atender(servidor, carpeta, "/");
    Ok(())
}

/// Sirve el libro de `raiz`, ya construido en `carpeta` (con el guion de
/// recarga que apunta a [`RECARGA`]), y lo reconstruye con
/// `reconstruir` cada vez que cambia algo de [`VIGILADAS`]; después recarga
/// las páginas abiertas. Hasta que se interrumpa el proceso.
pub fn servir_en_vivo(
    raiz: &Path,
    carpeta: &Path,
    puerto: u16,
    reconstruir: impl FnMut() -> Result<(), Error> + Send + 'static,
) -> Result<(), Error> {
    let servidor = escuchar(puerto)?;
    let recargas = Recargas::default();
    let _vigilante = vigilar(raiz, recargas.clone(), reconstruir)?;
    println!("El libro está en http://127.0.0.1:{puerto}/  (Ctrl+C para terminar)");
    println!("Si editas un capítulo, un archivo incluido o un registro, el libro se rehace y la página se recarga.");
    atender_con_recarga(servidor, carpeta, "/", Some(&recargas));
    Ok(())
}

/// Vigila [`VIGILADAS`] dentro de `raiz`; tras cada ráfaga de cambios
/// llama a `reconstruir` y, si sale bien, avisa a `recargas`. El hilo de
/// trabajo vive mientras viva el vigilante devuelto.
pub fn vigilar(
    raiz: &Path,
    recargas: Recargas,
    mut reconstruir: impl FnMut() -> Result<(), Error> + Send + 'static,
) -> Result<notify::RecommendedWatcher, Error> {
    use notify::{EventKind, RecursiveMode, Watcher};
    let (tx, rx) = mpsc::channel::<PathBuf>();
    let mut vigilante = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        if let Ok(ev) = ev
            && matches!(ev.kind, EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_))
        {
            for ruta in ev.paths {
                let _ = tx.send(ruta);
            }
        }
    })
    .map_err(|e| Error::mensaje(format!("no puedo vigilar los archivos: {e}")))?;
    for nombre in VIGILADAS {
        let ruta = raiz.join(nombre);
        if ruta.exists() {
            let modo = if ruta.is_dir() { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
            vigilante
                .watch(&ruta, modo)
                .map_err(|e| Error::mensaje(format!("no puedo vigilar {}: {e}", ruta.display())))?;
        }
    }
    let raiz = raiz.to_path_buf();
    std::thread::spawn(move || {
        // Se acaba cuando se suelta el vigilante (y con él, `tx`).
        while let Ok(primera) = rx.recv() {
            // Una ráfaga (guardar desde un editor escribe varias veces): se
            // espera a que pasen 200 ms sin cambios.
            let mut cambiadas = vec![primera];
            while let Ok(otra) = rx.recv_timeout(Duration::from_millis(200)) {
                cambiadas.push(otra);
            }
            cambiadas.sort();
            cambiadas.dedup();
            let nombres: Vec<String> =
                cambiadas.iter().map(|r| r.strip_prefix(&raiz).unwrap_or(r).display().to_string()).take(3).collect();
            let inicio = Instant::now();
            println!("Cambió {}: rehago el libro…", nombres.join(", "));
            match reconstruir() {
                Ok(()) => {
                    let n = recargas.avisar();
                    println!(
                        "Libro rehecho en {} s; {n} páginas recargadas.",
                        medidas::numero(inicio.elapsed().as_secs_f64(), 1)
                    );
                }
                Err(e) => eprintln!("El libro no se pudo rehacer (sigues viendo la versión anterior): {e}"),
            }
        }
    });
    Ok(vigilante)
}

/// Abre el puerto (0: uno libre cualquiera) solo en loopback.
pub fn escuchar(puerto: u16) -> Result<Server, Error> {
    Server::http(("127.0.0.1", puerto))
        .map_err(|e| Error::mensaje(format!("no puedo escuchar en 127.0.0.1:{puerto}: {e}; prueba con --puerto OTRO")))
}

/// Atiende peticiones para siempre. Las URL deben empezar por `base`
/// (`/` en local; `/repositorio/` en GitHub Pages).
pub fn atender(servidor: Server, carpeta: &Path, base: &str) {
    atender_con_recarga(servidor, carpeta, base, None);
}

/// Como [`atender`]; con `recargas`, acepta además los WebSocket de
/// `/__livereload` y los guarda para avisarlos.
pub fn atender_con_recarga(servidor: Server, carpeta: &Path, base: &str, recargas: Option<&Recargas>) {
    // Una petición por hilo: si una respuesta tarda en escribirse (el
    // navegador aún no la lee), las demás no esperan detrás de ella.
    std::thread::scope(|hilos| {
        for peticion in servidor.incoming_requests() {
            if let Some(recargas) = recargas
                && peticion.url() == format!("/{RECARGA}")
            {
                hilos.spawn(move || aceptar_websocket(peticion, recargas));
                continue;
            }
            hilos.spawn(move || responder(peticion, carpeta, base));
        }
    });
}

/// El saludo de WebSocket (RFC 6455): responde 101 con la clave firmada.
fn aceptar_websocket(peticion: tiny_http::Request, recargas: &Recargas) {
    let clave = peticion
        .headers()
        .iter()
        .find(|h| h.field.equiv("Sec-WebSocket-Key"))
        .map(|h| h.value.as_str().trim().to_string());
    let Some(clave) = clave else {
        let _ = peticion.respond(Response::from_string("falta Sec-WebSocket-Key").with_status_code(400));
        return;
    };
    let firma = sha1_smol::Sha1::from(format!("{clave}258EAFA5-E914-47DA-95CA-C5AB0DC85B11")).digest().bytes();
    let respuesta = Response::empty(101)
        .with_header(Header::from_bytes("Sec-WebSocket-Accept", base64(&firma)).expect("cabecera válida"));
    let socket = peticion.upgrade("websocket", respuesta);
    if let Ok(mut v) = recargas.0.lock() {
        v.push(socket);
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALFABETO: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut salida = String::new();
    for trozo in bytes.chunks(3) {
        let b = [trozo[0], *trozo.get(1).unwrap_or(&0), *trozo.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= trozo.len() {
                salida.push(ALFABETO[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                salida.push('=');
            }
        }
    }
    salida
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
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            salida.push(b);
            i += 3;
            continue;
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

    #[test]
    fn la_firma_del_websocket_es_la_del_rfc() {
        // El ejemplo de la RFC 6455, sección 1.3.
        let firma =
            sha1_smol::Sha1::from("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest().bytes();
        assert_eq!(base64(&firma), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        assert_eq!(base64(b"ab"), "YWI=");
    }
}
