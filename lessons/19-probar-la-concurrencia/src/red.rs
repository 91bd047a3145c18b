//! Un cliente y un servidor sobre la red simulada de turmoil.
//!
//! El servidor lleva un saldo; el cliente ingresa dinero con datagramas
//! UDP y reintenta si la respuesta no llega a tiempo. La red tiene latencia
//! al azar (fijada por la semilla) y se puede partir.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use turmoil::net::UdpSocket;

/// El puerto del servidor.
pub const PUERTO: u16 = 7000;
/// Cuánto espera el cliente una respuesta antes de reintentar.
pub const PLAZO: Duration = Duration::from_millis(500);
/// Intentos por ingreso.
pub const INTENTOS: u32 = 6;

/// Cómo trata el servidor una petición repetida.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Servidor {
    /// Aplica cada petición que llega, aunque ya la hubiera aplicado.
    SinClave,
    /// Recuerda cada identificador: una repetida recibe la misma respuesta
    /// y no vuelve a sumar (la petición es idempotente).
    ConClave,
}

type Traza = Arc<Mutex<Vec<String>>>;

fn anota(traza: &Traza, quien: &str, que: String) {
    let t = turmoil::sim_elapsed().unwrap_or_default();
    traza.lock().unwrap().push(format!("{:>8} s  {quien:<9} {que}", medidas::numero(t.as_secs_f64(), 3)));
}

// ANCHOR: servidor
async fn servidor(modo: Servidor, saldo: Arc<Mutex<u64>>, traza: Traza) -> turmoil::Result {
    let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), PUERTO)).await?;
    let mut hechas: HashMap<u64, u64> = HashMap::new();
    let mut buf = [0u8; 128];
    loop {
        let (n, de) = socket.recv_from(&mut buf).await?;
        let texto = std::str::from_utf8(&buf[..n])?;
        let mut partes = texto.split_whitespace().skip(1);
        let id: u64 = partes.next().ok_or("sin id")?.parse()?;
        let cantidad: u64 = partes.next().ok_or("sin cantidad")?.parse()?;
        let tras = match (modo, hechas.get(&id)) {
            (Servidor::ConClave, Some(&ya)) => {
                anota(&traza, "servidor", format!("ingreso {id} repetido: no suma, contesta {ya}"));
                ya
            }
            _ => {
                let mut s = saldo.lock().unwrap();
                *s += cantidad;
                anota(&traza, "servidor", format!("ingreso {id}: +{cantidad}, saldo {}", *s));
                hechas.insert(id, *s);
                *s
            }
        };
        socket.send_to(format!("hecho {id} {tras}").as_bytes(), de).await?;
    }
}
// ANCHOR_END: servidor

// ANCHOR: cliente
/// Ingresa `cantidad` con el identificador `id`: reintenta con el MISMO
/// identificador si la respuesta no llega en `PLAZO`.
async fn ingresa(socket: &UdpSocket, id: u64, cantidad: u64, traza: &Traza) -> Result<u64, String> {
    let mut buf = [0u8; 128];
    for intento in 1..=INTENTOS {
        anota(traza, "cliente", format!("envía ingreso {id} (intento {intento})"));
        socket
            .send_to(format!("ingresa {id} {cantidad}").as_bytes(), ("servidor", PUERTO))
            .await
            .map_err(|e| e.to_string())?;
        let limite = tokio::time::Instant::now() + PLAZO;
        loop {
            match tokio::time::timeout_at(limite, socket.recv_from(&mut buf)).await {
                Err(_) => {
                    anota(traza, "cliente", format!("sin respuesta en {} ms", PLAZO.as_millis()));
                    break;
                }
                Ok(r) => {
                    let (n, _) = r.map_err(|e| e.to_string())?;
                    let texto = String::from_utf8_lossy(&buf[..n]).to_string();
                    let mut partes = texto.split_whitespace().skip(1);
                    let de: u64 = partes.next().and_then(|p| p.parse().ok()).unwrap_or(0);
                    let saldo: u64 = partes.next().and_then(|p| p.parse().ok()).unwrap_or(0);
                    if de == id {
                        anota(traza, "cliente", format!("respuesta al ingreso {id}: saldo {saldo}"));
                        return Ok(saldo);
                    }
                    anota(traza, "cliente", format!("respuesta tardía al ingreso {de}: la ignora"));
                }
            }
        }
    }
    Err(format!("el ingreso {id} no recibió respuesta en {INTENTOS} intentos"))
}
// ANCHOR_END: cliente

/// Lo que dejó una simulación de ingresos.
#[derive(Debug, Clone)]
pub struct Ingresos {
    pub saldo: u64,
    pub esperado: u64,
    pub traza: Vec<String>,
}

impl Ingresos {
    pub fn cuadra(&self) -> bool {
        self.saldo == self.esperado
    }
}

// ANCHOR: escena
/// Tres ingresos de 10 con la latencia que decida la semilla: entre 1 y
/// 400 ms por mensaje, así que una ida y vuelta puede pasar del plazo.
pub fn ingresos(semilla: u64, modo: Servidor) -> Ingresos {
    let saldo = Arc::new(Mutex::new(0u64));
    let traza: Traza = Arc::default();
    let mut sim = turmoil::Builder::new()
        .rng_seed(semilla)
        .min_message_latency(Duration::from_millis(1))
        .max_message_latency(Duration::from_millis(400))
        .simulation_duration(Duration::from_secs(60))
        .build();
    let (s, t) = (Arc::clone(&saldo), Arc::clone(&traza));
    sim.host("servidor", move || servidor(modo, Arc::clone(&s), Arc::clone(&t)));
    let t = Arc::clone(&traza);
    sim.client("cliente", async move {
        let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
        for id in 1..=3 {
            ingresa(&socket, id, 10, &t).await?;
        }
        Ok(())
    });
    let fin = sim.run();
    let mut traza = traza.lock().unwrap().clone();
    if let Err(e) = fin {
        traza.push(format!("la simulación acabó con error: {e}"));
    }
    let saldo = *saldo.lock().unwrap();
    Ingresos { saldo, esperado: 30, traza }
}
// ANCHOR_END: escena

/// Cómo espera un cliente entre intentos en la tormenta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Espera {
    /// Reintenta en cuanto vence el plazo, siempre con el mismo plazo.
    Fija,
    /// Dobla la espera en cada intento, con tope.
    Exponencial,
    /// Dobla la espera con tope, pero espera un trozo al azar de ella (el
    /// azar en la espera, *jitter*): los clientes que fallaron a la vez dejan
    /// de reintentar a la vez.
    ExponencialConAzar,
}

// ANCHOR: azar
/// Un generador de números al azar pequeño y con semilla (SplitMix64): la
/// misma semilla da siempre la misma serie, así que la simulación se repite.
pub struct Azar(u64);

impl Azar {
    pub fn new(semilla: u64) -> Azar {
        Azar(semilla)
    }

    /// Un número en [0, 1).
    pub fn siguiente(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Cuánto esperar, además del plazo ya vencido, antes del intento siguiente.
/// `pausa` empieza en el plazo y se dobla en cada fallo, con tope. Sin azar,
/// el intervalo entre dos intentos es la pausa (el plazo ya esperado más lo
/// que falta); con azar, se espera además un trozo al azar de la pausa,
/// entre nada y toda: así dos clientes que fallaron a la vez no vuelven a
/// la vez, ni siquiera en el primer reintento.
pub fn espera_extra(espera: Espera, pausa: Duration, plazo: Duration, azar: &mut Azar) -> Duration {
    match espera {
        Espera::Fija => Duration::ZERO,
        Espera::Exponencial => pausa.saturating_sub(plazo),
        Espera::ExponencialConAzar => pausa.mul_f64(azar.siguiente()),
    }
}
// ANCHOR_END: azar

/// Lo que dejó una tormenta.
#[derive(Debug, Clone, Copy)]
pub struct Tormenta {
    /// Peticiones enviadas mientras la red estaba partida.
    pub durante: usize,
    /// Peticiones enviadas en total.
    pub total: usize,
    /// Cuándo terminó el último cliente, en tiempo simulado.
    pub fin: Duration,
    /// La ráfaga mayor de reintentos: cuántos salieron en un mismo tic (10 ms).
    /// (El primer intento de todos sale a la vez, al empezar: no cuenta.)
    pub rafaga: usize,
    /// La ráfaga mayor después de reparar la red: los que le llegan juntos al
    /// servidor cuando vuelve a verlos.
    pub rafaga_tras_reparar: usize,
}

/// Plazo de cada intento en la tormenta.
pub const PLAZO_TORMENTA: Duration = Duration::from_millis(100);
/// Tope de la espera exponencial.
pub const TOPE: Duration = Duration::from_secs(2);
/// Lo que dura la partición.
pub const PARTICION: Duration = Duration::from_secs(10);
/// Lo que dura un tic de la simulación de la tormenta.
pub const TIC: Duration = Duration::from_millis(10);

/// La ráfaga mayor de unos instantes: cuántos caen en el mismo tic.
fn rafaga(instantes: &[Duration]) -> usize {
    let mut cuantos = std::collections::BTreeMap::new();
    for t in instantes {
        *cuantos.entry(t.as_millis() / TIC.as_millis()).or_insert(0) += 1;
    }
    cuantos.values().copied().max().unwrap_or(0)
}

// ANCHOR: tormenta
/// `clientes` clientes hacen un ingreso cada uno mientras la red entre
/// ellos y el servidor está partida durante `PARTICION`; luego se repara.
/// Cada cliente saca su azar de la semilla y de su número.
pub fn tormenta(clientes: usize, espera: Espera, semilla: u64) -> Tormenta {
    let envios = Arc::new(Mutex::new(Vec::new())); // el instante y el intento de cada envío
    let traza: Traza = Arc::default();
    let mut sim = turmoil::Builder::new()
        .rng_seed(semilla)
        .min_message_latency(Duration::from_millis(1))
        .max_message_latency(Duration::from_millis(20))
        .tick_duration(TIC)
        .simulation_duration(Duration::from_secs(120))
        .build();
    let (s, t) = (Arc::new(Mutex::new(0)), Arc::clone(&traza));
    sim.host("servidor", move || servidor(Servidor::ConClave, Arc::clone(&s), Arc::clone(&t)));
    let nombres: Vec<String> = (0..clientes).map(|c| format!("cliente-{c}")).collect();
    for (c, nombre) in nombres.iter().enumerate() {
        let envios = Arc::clone(&envios);
        sim.client(nombre.as_str(), async move {
            let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
            let mut buf = [0u8; 128];
            let mut azar = Azar::new(semilla.wrapping_mul(1_000_003).wrapping_add(c as u64));
            let mut pausa = PLAZO_TORMENTA;
            for intento in 1.. {
                envios.lock().unwrap().push((turmoil::sim_elapsed().unwrap_or_default(), intento));
                socket.send_to(format!("ingresa {c} 10").as_bytes(), ("servidor", PUERTO)).await?;
                if tokio::time::timeout(PLAZO_TORMENTA, socket.recv_from(&mut buf)).await.is_ok() {
                    return Ok(());
                }
                tokio::time::sleep(espera_extra(espera, pausa, PLAZO_TORMENTA, &mut azar)).await;
                pausa = (pausa * 2).min(TOPE);
            }
            Ok(())
        });
    }
    for nombre in &nombres {
        sim.partition("servidor", nombre.as_str());
    }
    let mut reparada = false;
    let fin = loop {
        if !reparada && sim.elapsed() >= PARTICION {
            for nombre in &nombres {
                sim.repair("servidor", nombre.as_str());
            }
            reparada = true;
        }
        match sim.step() {
            Ok(true) => break sim.elapsed(),
            Ok(false) => {}
            Err(e) => panic!("la tormenta acabó con error: {e}"),
        }
    };
    let envios: Vec<(Duration, u32)> = envios.lock().unwrap().clone();
    let reintentos: Vec<Duration> = envios.iter().filter(|(_, i)| *i > 1).map(|(t, _)| *t).collect();
    let tras: Vec<Duration> = reintentos.iter().copied().filter(|t| *t >= PARTICION).collect();
    Tormenta {
        durante: envios.iter().filter(|(t, _)| *t < PARTICION).count(),
        total: envios.len(),
        fin,
        rafaga: rafaga(&reintentos),
        rafaga_tras_reparar: rafaga(&tras),
    }
}
// ANCHOR_END: tormenta

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn el_azar_se_repite_con_su_semilla_y_cae_entre_0_y_1() {
        let serie = |s| {
            let mut a = Azar::new(s);
            (0..100).map(|_| a.siguiente()).collect::<Vec<f64>>()
        };
        assert_eq!(serie(7), serie(7));
        assert_ne!(serie(7), serie(8));
        assert!(serie(7).iter().all(|x| (0.0..1.0).contains(x)));
    }

    #[test]
    fn la_espera_extra_de_cada_modo() {
        let mut a = Azar::new(1);
        let (plazo, pausa) = (Duration::from_millis(100), Duration::from_millis(800));
        assert_eq!(espera_extra(Espera::Fija, pausa, plazo, &mut a), Duration::ZERO);
        assert_eq!(espera_extra(Espera::Exponencial, pausa, plazo, &mut a), Duration::from_millis(700));
        let con_azar: Vec<Duration> =
            (0..20).map(|_| espera_extra(Espera::ExponencialConAzar, pausa, plazo, &mut a)).collect();
        assert!(con_azar.iter().all(|d| *d < pausa), "{con_azar:?}");
        assert!(con_azar.windows(2).any(|w| w[0] != w[1]), "con azar, no siempre lo mismo");
    }
}
