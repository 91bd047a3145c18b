//! El servidor de los ingresos (no es un ejercicio: no lo cambies).
//!
//! Lleva un saldo. Cada datagrama `ingresa ID CANTIDAD` suma `CANTIDAD` una
//! sola vez por `ID`: si el mismo `ID` llega otra vez, contesta lo mismo
//! que la primera y no vuelve a sumar. La respuesta es `hecho ID SALDO`.
//! Apunta en `Registro` cada petición que recibe y cuándo.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use turmoil::net::UdpSocket;

/// El puerto del servidor.
pub const PUERTO: u16 = 7000;

/// Lo que ha visto el servidor.
#[derive(Debug, Default, Clone)]
pub struct Registro {
    pub saldo: u64,
    /// (instante simulado, id) de cada petición recibida, en orden.
    pub peticiones: Vec<(Duration, u64)>,
}

/// El servidor: atiende para siempre en `PUERTO`.
pub async fn servidor(registro: Arc<Mutex<Registro>>) -> turmoil::Result {
    let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), PUERTO)).await?;
    let mut hechas: HashMap<u64, u64> = HashMap::new();
    let mut buf = [0u8; 128];
    loop {
        let (n, de) = socket.recv_from(&mut buf).await?;
        let texto = std::str::from_utf8(&buf[..n])?;
        let mut partes = texto.split_whitespace();
        if partes.next() != Some("ingresa") {
            continue;
        }
        let id: u64 = partes.next().ok_or("sin id")?.parse()?;
        let cantidad: u64 = partes.next().ok_or("sin cantidad")?.parse()?;
        let saldo = {
            let mut r = registro.lock().unwrap();
            r.peticiones.push((turmoil::sim_elapsed().unwrap_or_default(), id));
            match hechas.get(&id) {
                Some(&ya) => ya,
                None => {
                    r.saldo += cantidad;
                    hechas.insert(id, r.saldo);
                    r.saldo
                }
            }
        };
        socket.send_to(format!("hecho {id} {saldo}").as_bytes(), de).await?;
    }
}
