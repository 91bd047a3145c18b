//! Lo que registra mdbook durante una construcción (con `tracing`): cada
//! aviso y cada error se escribe en stderr y se cuenta. El contador es de
//! una sola construcción ([`Contador::durante`] lo instala solo en el hilo
//! que construye y mientras construye): dos construcciones a la vez, cada
//! una en su hilo, no mezclan sus cuentas.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Cuántos errores y avisos registró mdbook.
#[derive(Debug, Default)]
struct Cuentas {
    errores: AtomicUsize,
    avisos: AtomicUsize,
}

/// Un suscriptor de `tracing` mínimo: solo avisos y errores, sin tramos.
#[derive(Clone, Default)]
pub struct Contador(Arc<Cuentas>);

impl Contador {
    /// Ejecuta `f` con este contador como suscriptor de su hilo; devuelve lo que
    /// devuelve `f` y cuántos (errores, avisos) se registraron mientras tanto.
    pub fn durante<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
        let contador = Contador::default();
        let cuentas = Arc::clone(&contador.0);
        let hecho = tracing::subscriber::with_default(contador, f);
        (hecho, cuentas.errores.load(Ordering::SeqCst), cuentas.avisos.load(Ordering::SeqCst))
    }
}

/// El mensaje de un evento y sus campos, como `mensaje campo=valor`.
struct Mensaje(String);

impl tracing::field::Visit for Mensaje {
    fn record_debug(&mut self, campo: &tracing::field::Field, valor: &dyn std::fmt::Debug) {
        if campo.name() == "message" {
            self.0 = format!("{valor:?}");
        } else {
            self.0.push_str(&format!(" {}={valor:?}", campo.name()));
        }
    }
}

impl tracing::Subscriber for Contador {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() <= tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, evento: &tracing::Event<'_>) {
        let mut mensaje = Mensaje(String::new());
        evento.record(&mut mensaje);
        let nivel = *evento.metadata().level();
        let cuenta = if nivel == tracing::Level::ERROR { &self.0.errores } else { &self.0.avisos };
        cuenta.fetch_add(1, Ordering::SeqCst);
        eprintln!("{nivel} {}: {}", evento.metadata().target(), mensaje.0);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn cada_construccion_cuenta_lo_suyo() {
        // Dos «construcciones» a la vez, en dos hilos: cada una ve solo sus avisos.
        let una = std::thread::spawn(|| {
            Contador::durante(|| {
                tracing::error!("uno");
                tracing::warn!("dos");
            })
        });
        let otra = Contador::durante(|| tracing::warn!("tres"));
        let una = una.join().unwrap();
        assert_eq!((una.1, una.2), (1, 1));
        assert_eq!((otra.1, otra.2), (0, 1));
        // Fuera de una construcción no cuenta nadie.
        tracing::error!("fuera");
        assert_eq!(Contador::durante(|| ()).1, 0);
    }
}
