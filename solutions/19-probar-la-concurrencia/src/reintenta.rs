//! Ejercicio 3: reintentar sin ingresar dos veces y sin tormenta.
//!
//! El cliente ingresa dinero en el `servidor` con datagramas UDP sobre la
//! red simulada de turmoil: envía `ingresa ID CANTIDAD` a
//! `("servidor", PUERTO)` y espera `hecho ID SALDO`. La red puede tardar
//! más que el plazo, perder respuestas o partirse un buen rato.
//!
//! Escribe tres funciones:
//!
//! - `tope(politica, fallos)`: la espera más larga tras el fallo número
//!   `fallos` (1, 2, 3...): `espera_inicial` la primera vez, el doble cada
//!   vez, nunca más de `espera_max`. Cualquier número de fallos es válido,
//!   también `u32::MAX`: nada de desbordar.
//! - `espera(politica, fallos, azar)`: lo que se espera de verdad antes de
//!   reintentar, una duración al azar entre cero y el tope:
//!   `azar.hasta(tope(politica, fallos))` (espera exponencial acotada con
//!   *jitter* completo). Sin azar, los clientes que fallaron a la vez (la red
//!   se partió para todos) reintentan a la vez, una y otra vez: una tormenta
//!   sincronizada. Saca un número del generador por espera, ni más ni menos:
//!   así una semilla da siempre las mismas esperas, y las pruebas las saben.
//! - `ingresa(socket, id, cantidad, politica, azar)`: hasta
//!   `politica.intentos` intentos. En cada uno envía la petición CON EL
//!   MISMO `id` (el servidor la aplica una sola vez por `id`) y espera la
//!   respuesta como mucho `politica.plazo`. Una respuesta con otro `id` es
//!   de un ingreso anterior que llegó tarde: ignórala y sigue esperando
//!   dentro del mismo plazo, que ni se alarga ni se acorta por ella. Si
//!   vence el plazo y quedan intentos, duerme `espera(politica, fallos,
//!   azar)` y reintenta. Con la respuesta buena, devuelve el saldo; sin
//!   intentos, `Err(Agotado)`.

use std::time::Duration;

use tokio::time::{Instant, sleep, timeout_at};
use turmoil::net::UdpSocket;

use crate::azar::Azar;
use crate::servidor::PUERTO;

/// Cómo reintenta el cliente.
#[derive(Debug, Clone, Copy)]
pub struct Politica {
    /// Cuánto espera la respuesta de cada intento.
    pub plazo: Duration,
    /// La espera tras el primer fallo.
    pub espera_inicial: Duration,
    /// La espera más larga.
    pub espera_max: Duration,
    /// Intentos en total (el primero incluido).
    pub intentos: u32,
}

/// Se acabaron los intentos sin respuesta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agotado;

/// La espera más larga tras el fallo número `fallos` (desde 1).
pub fn tope(politica: &Politica, fallos: u32) -> Duration {
    let mut espera = politica.espera_inicial;
    // Doblar con tope: a partir del tope ya no cambia, así que el bucle
    // acaba pronto aunque `fallos` sea enorme, y no desborda nunca.
    for _ in 1..fallos {
        if espera >= politica.espera_max {
            break;
        }
        espera = espera.saturating_mul(2);
    }
    espera.min(politica.espera_max)
}

/// La espera tras el fallo número `fallos`: al azar, entre cero y el tope.
pub fn espera(politica: &Politica, fallos: u32, azar: &mut Azar) -> Duration {
    // Jitter completo: así dos clientes que fallaron a la vez no vuelven a la vez.
    azar.hasta(tope(politica, fallos))
}

/// Ingresa `cantidad` con el identificador `id`. Devuelve el saldo que
/// contestó el servidor.
pub async fn ingresa(
    socket: &UdpSocket,
    id: u64,
    cantidad: u64,
    politica: &Politica,
    azar: &mut Azar,
) -> Result<u64, Agotado> {
    let peticion = format!("ingresa {id} {cantidad}");
    let mut buf = [0u8; 128];
    for intento in 1..=politica.intentos {
        if socket.send_to(peticion.as_bytes(), ("servidor", PUERTO)).await.is_err() {
            return Err(Agotado);
        }
        let limite = Instant::now() + politica.plazo;
        while let Ok(Ok((n, _))) = timeout_at(limite, socket.recv_from(&mut buf)).await {
            let texto = String::from_utf8_lossy(&buf[..n]);
            let mut partes = texto.split_whitespace();
            if partes.next() != Some("hecho") {
                continue;
            }
            let de: Option<u64> = partes.next().and_then(|p| p.parse().ok());
            let saldo: Option<u64> = partes.next().and_then(|p| p.parse().ok());
            if let (Some(de), Some(saldo)) = (de, saldo)
                && de == id
            {
                return Ok(saldo);
            }
            // De otro ingreso: llegó tarde. Se sigue esperando la nuestra.
        }
        if intento < politica.intentos {
            sleep(espera(politica, intento, azar)).await;
        }
    }
    Err(Agotado)
}
