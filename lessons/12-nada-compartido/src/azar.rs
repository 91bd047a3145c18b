//! Un generador pseudoaleatorio diminuto y con semilla: SplitMix64.
//!
//! No sirve para criptografía. Sirve para lo que necesita el curso: que la
//! misma semilla dé siempre la misma secuencia, en cualquier máquina, sin
//! depender de ningún crate.

/// Un generador SplitMix64. La misma semilla da la misma secuencia.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Azar {
    estado: u64,
}

impl Azar {
    /// Un generador que empieza en `semilla`.
    pub fn new(semilla: u64) -> Self {
        Azar { estado: semilla }
    }

    /// El siguiente número de la secuencia.
    pub fn siguiente(&mut self) -> u64 {
        self.estado = self.estado.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.estado;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Un número en `0..n` (`n` mayor que cero). El sesgo del módulo es
    /// despreciable para los `n` pequeños que usa el curso.
    pub fn hasta(&mut self, n: usize) -> usize {
        assert!(n > 0, "Azar::hasta necesita un n mayor que cero");
        (self.siguiente() % n as u64) as usize
    }
}

#[cfg(test)]
mod pruebas {
    use super::Azar;

    #[test]
    fn misma_semilla_misma_secuencia() {
        let a: Vec<u64> = {
            let mut r = Azar::new(42);
            (0..5).map(|_| r.siguiente()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Azar::new(42);
            (0..5).map(|_| r.siguiente()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(Azar::new(1).siguiente(), Azar::new(2).siguiente());
    }

    #[test]
    fn valores_conocidos_de_splitmix64() {
        // Los primeros valores de SplitMix64 con semilla 0 (la secuencia de referencia).
        let mut r = Azar::new(0);
        assert_eq!(r.siguiente(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.siguiente(), 0x6E78_9E6A_A1B9_65F4);
    }
}
