//! Dos piezas más de loom: `loom::cell::UnsafeCell`, que comprueba cada
//! acceso a memoria que no es atómica, y `loom::future::block_on`, para
//! modelos con *futures*.
//!
//! - `UnsafeCell` de loom no deja tocar el dato sin decir cómo: `with` para
//!   leer y `with_mut` para escribir. Con eso, loom sabe qué acceso va antes
//!   que qué otro según el modelo de memoria, y si una lectura puede ocurrir
//!   a la vez que una escritura (una carrera de datos, *data race*), lo dice.
//! - `block_on` sondea un *future* dentro de un hilo del modelo y, cuando da
//!   `Pending`, lo duerme hasta que alguien llame al `Waker`. Si nadie lo
//!   llama, loom lo ve como un bloqueo: el aviso perdido, ahora en async.
//!
//! Como en `aviso.rs`, el `Arc` es el de `std`.

use std::future::poll_fn;
use std::sync::Arc;
use std::task::Poll;

use loom::cell::UnsafeCell;
use loom::future::{AtomicWaker, block_on};
use loom::sync::atomic::{AtomicBool, Ordering};

// ANCHOR: publica
/// Un dato que un hilo escribe y después publica con una bandera.
pub struct Buzon {
    dato: UnsafeCell<u64>,
    listo: AtomicBool,
}

// SAFETY: el dato solo se escribe antes de publicar la bandera y solo se lee
// después de verla: es justo lo que el modelo comprueba.
unsafe impl Sync for Buzon {}

/// Un hilo escribe 42 y levanta la bandera con `orden`; el principal, si ve
/// la bandera (con `Acquire`), lee el dato.
pub fn publica(orden: Ordering) {
    let buzon = Arc::new(Buzon { dato: UnsafeCell::new(0), listo: AtomicBool::new(false) });
    let escritor = {
        let buzon = Arc::clone(&buzon);
        loom::thread::spawn(move || {
            // SAFETY: nadie lee el dato hasta ver la bandera.
            buzon.dato.with_mut(|p| unsafe { *p = 42 });
            buzon.listo.store(true, orden);
        })
    };
    if buzon.listo.load(Ordering::Acquire) {
        // SAFETY: la bandera dice que ya se escribió... si `orden` lo garantiza.
        let visto = buzon.dato.with(|p| unsafe { *p });
        assert_eq!(visto, 42);
    }
    escritor.join().unwrap();
}
// ANCHOR_END: publica

// ANCHOR: block_on
/// Un aviso para una tarea async: una bandera y el `Waker` de quien espera.
pub struct Aviso {
    listo: AtomicBool,
    waker: AtomicWaker,
}

/// Otro hilo avisa; el principal espera el aviso con `block_on`. Con
/// `apunta_antes`, el *future* deja su `Waker` antes de mirar la bandera;
/// sin él, mira primero y se apunta después, y el aviso puede caer justo
/// entre las dos cosas.
pub fn espera_el_aviso(apunta_antes: bool) {
    let aviso = Arc::new(Aviso { listo: AtomicBool::new(false), waker: AtomicWaker::new() });
    let quien_avisa = {
        let aviso = Arc::clone(&aviso);
        loom::thread::spawn(move || {
            aviso.listo.store(true, Ordering::SeqCst);
            aviso.waker.wake();
        })
    };
    block_on(poll_fn(|cx| {
        if apunta_antes {
            aviso.waker.register_by_ref(cx.waker());
        }
        if aviso.listo.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        if !apunta_antes {
            aviso.waker.register_by_ref(cx.waker()); // tarde: el aviso pudo pasar ya
        }
        Poll::Pending
    }));
    quien_avisa.join().unwrap();
}
// ANCHOR_END: block_on
