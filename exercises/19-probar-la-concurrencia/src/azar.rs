//! Un generador de números al azar pequeño y con semilla (no es un
//! ejercicio: úsalo tal cual).
//!
//! Es un *xorshift64\** (Vigna, 2016): tres desplazamientos, tres o
//! exclusivos y una multiplicación. No sirve para criptografía; para
//! repartir reintentos en el tiempo sobra. Lo que importa aquí es la
//! semilla: la misma semilla da siempre la misma secuencia, así que las
//! pruebas saben qué esperas saldrán, y dos clientes con semillas distintas
//! esperan cosas distintas.

use std::time::Duration;

/// Un generador de números al azar con semilla.
#[derive(Debug)]
pub struct Azar {
    estado: u64,
}

impl Azar {
    /// Un generador con esta semilla. Con la 0, xorshift no saldría nunca del
    /// 0: se cambia por otra fija.
    pub fn con_semilla(semilla: u64) -> Azar {
        Azar { estado: if semilla == 0 { 0x9E37_79B9_7F4A_7C15 } else { semilla } }
    }

    /// El siguiente número de la secuencia.
    pub fn siguiente(&mut self) -> u64 {
        let mut x = self.estado;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.estado = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Una duración al azar entre cero y `tope`, los dos incluidos, en
    /// milisegundos enteros (lo que no llega a un milisegundo se descarta: los
    /// temporizadores de Tokio no distinguen menos). Saca un solo número de la
    /// secuencia, sea cual sea el tope.
    pub fn hasta(&mut self, tope: Duration) -> Duration {
        let milisegundos = tope.as_millis();
        Duration::from_millis((u128::from(self.siguiente()) % (milisegundos + 1)) as u64)
    }
}
