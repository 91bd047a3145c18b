//! `cargo run -p soluciones-14`: las tres soluciones del capítulo 14 en marcha.

use std::time::Duration;

use cual_elegir::descarte::{Portero, Prioridad};
use cual_elegir::dimensiona::{limite, shards};
use cual_elegir::percentiles::resumen;

fn main() {
    println!("1. percentiles: 1 000 latencias inventadas, casi todas de 2 ms y veinte de 1 s");
    let muestras: Vec<Duration> =
        (0..1_000).map(|i| if i % 50 == 7 { Duration::from_secs(1) } else { Duration::from_millis(2) }).collect();
    let media = muestras.iter().sum::<Duration>() / muestras.len() as u32;
    println!("   media {} (no describe a nadie); {:?}", medidas::duracion(media), resumen(&muestras).unwrap());

    println!("2. dimensiona: con 50 000 peticiones/s por núcleo, al 70 % como mucho");
    for carga in [30_000.0, 100_000.0, 500_000.0] {
        println!("   {carga:>9} peticiones/s en 8 núcleos: {:?}", shards(carga, 50_000.0, 0.7, 8));
    }
    for ms in [1, 10, 100] {
        println!(
            "   esperar como mucho {ms:>3} ms con 50 000/s: cola de {}",
            limite(50_000.0, Duration::from_millis(ms))
        );
    }

    println!("3. descarte: 10 permisos, 2 reservados; llegan 12 normales y luego 3 urgentes");
    let portero = Portero::new(10, 2);
    let mut dentro = Vec::new();
    let normales = (0..12).filter(|_| portero.entra(Prioridad::Normal).map(|p| dentro.push(p)).is_ok()).count();
    let altas = (0..3).filter(|_| portero.entra(Prioridad::Alta).map(|p| dentro.push(p)).is_ok()).count();
    println!(
        "   entran {normales} normales de 12 y {altas} urgentes de 3; quedan {} permisos libres",
        portero.libres()
    );
}
