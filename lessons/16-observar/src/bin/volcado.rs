//! `cargo volcado`: el volcado de tareas (`Handle::dump`) de un servicio con
//! una tarea atascada y dos peticiones en cola. Necesita `--cfg tokio_unstable`
//! y la característica `volcado` (el alias lo pone todo) y solo funciona en
//! Linux (aarch64, x86, x86_64, s390x). Se compila sin optimizar, con número
//! de línea: optimizado, el compilador funde los `async fn` y el volcado solo
//! enseña la última espera.

#[cfg(all(tokio_unstable, feature = "volcado", target_os = "linux"))]
fn main() {
    use std::sync::Arc;
    use std::time::Duration;

    use leccion_16::{espera_al_inventario, pide_conexion};
    use tokio::sync::{Notify, Semaphore};

    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        tokio::spawn(espera_al_inventario(Arc::new(Notify::new())));
        let conexiones = Arc::new(Semaphore::new(0)); // agotado
        for id in [1, 2] {
            tokio::spawn(pide_conexion(id, conexiones.clone()));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        // ANCHOR: volcado
        let handle = tokio::runtime::Handle::current();
        // Un plazo: con un trabajador bloqueado, el volcado podría no volver nunca.
        match tokio::time::timeout(Duration::from_secs(2), handle.dump()).await {
            Ok(volcado) => {
                for tarea in volcado.tasks().iter() {
                    // Las rutas, relativas a la lección.
                    let traza = tarea.trace().to_string().replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "");
                    println!("tarea {}:\n{traza}\n", tarea.id());
                }
            }
            Err(_) => println!("el volcado no llegó en 2 s (¿un trabajador bloqueado?)"),
        }
        // ANCHOR_END: volcado
    });
    rt.shutdown_timeout(Duration::from_millis(100));
}

#[cfg(not(all(tokio_unstable, feature = "volcado", target_os = "linux")))]
fn main() {
    println!(
        "el volcado de tareas necesita `cargo volcado` (--cfg tokio_unstable y la característica volcado), en Linux"
    );
}
