//! Un generador de números pseudoaleatorios diminuto, sin dependencias, para
//! elegir a quién robar. No sirve para nada que deba ser impredecible; aquí
//! solo hace falta que dos ladrones no empiecen siempre por la misma víctima.

// ANCHOR: xorshift
/// Xorshift de 64 bits (Marsaglia, 2003): tres desplazamientos y tres XOR.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// La semilla no puede ser 0 (la secuencia se quedaría en 0 para siempre).
    pub fn new(semilla: u64) -> Self {
        XorShift(semilla.max(1))
    }

    pub fn siguiente(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Un número en `0..n` (`n > 0`). El módulo sesga un poco; para elegir
    /// víctima da igual.
    pub fn hasta(&mut self, n: usize) -> usize {
        (self.siguiente() % n as u64) as usize
    }
}
// ANCHOR_END: xorshift
