//! Peticiones simuladas, una detrás de otra, en un solo hilo: cuánto de su
//! tiempo pasa el hilo calculando y cuánto esperando.
//!
//! ```text
//! cargo run -p leccion-01 --release                    # 100 peticiones
//! cargo run -p leccion-01 --release -- --peticiones 1000
//! cargo run -p leccion-01 -- --rapido                  # diez, lo que usan las pruebas
//! ```

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use leccion_01::{
    ESPERA_DE_LA_BASE, Opciones, TAMANO_DEL_CALCULO, arranca_base_de_datos, conecta, cpu_del_hilo, fnv1a,
};
use medidas::{entero, numero};

/// Un tramo de la traza: cuánto duró en el reloj de pared y cuánta CPU gastó
/// el hilo en él.
#[derive(Debug, Clone, Copy, Default)]
struct Tramo {
    inicio: Duration,
    fin: Duration,
    cpu: Option<Duration>,
}

/// Las tres fases de una petición.
#[derive(Debug, Clone, Copy, Default)]
struct Traza {
    prepara: Tramo,
    espera: Tramo,
    responde: Tramo,
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    if let Err(e) = demo(opciones.peticiones) {
        eprintln!("error: la base de datos simulada en 127.0.0.1 falló: {e}");
        std::process::exit(1);
    }
}

fn demo(n: u32) -> std::io::Result<()> {
    let direccion = arranca_base_de_datos(ESPERA_DE_LA_BASE)?;
    let mut base = conecta(direccion)?;
    let mut texto = vec![0u8; TAMANO_DEL_CALCULO];
    for (i, b) in texto.iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }

    let mut calculando = Duration::ZERO;
    let mut esperando = Duration::ZERO;
    let mut cpu_en_esperas = Duration::ZERO;
    let mut ultima = Traza::default();
    let mut comprobacion = 0u64;
    let cpu_al_empezar = cpu_del_hilo();
    let inicio = Instant::now();
    for id in 0..n {
        // ANCHOR: peticion
        // Un tramo va de `desde` a ahora: reloj de pared y reloj de CPU del hilo.
        let origen = Instant::now();
        let marca = |desde: Instant, cpu: Option<Duration>| Tramo {
            inicio: desde - origen,
            fin: origen.elapsed(),
            cpu: cpu.zip(cpu_del_hilo()).map(|(antes, ahora)| ahora - antes),
        };

        // 1. Calcular: preparar la consulta (un hash de 8 KiB).
        let (t, c) = (Instant::now(), cpu_del_hilo());
        texto[..4].copy_from_slice(&id.to_le_bytes());
        let consulta = fnv1a(&texto);
        let prepara = marca(t, c);

        // 2. Esperar: mandar la consulta y quedarse bloqueado en read()
        //    hasta que la «base de datos» conteste.
        let (t, c) = (Instant::now(), cpu_del_hilo());
        base.write_all(&consulta.to_le_bytes())?;
        let mut respuesta = [0u8; 8];
        base.read_exact(&mut respuesta)?;
        let espera = marca(t, c);

        // 3. Calcular otra vez: preparar la respuesta al cliente.
        let (t, c) = (Instant::now(), cpu_del_hilo());
        texto[4..12].copy_from_slice(&respuesta);
        comprobacion ^= fnv1a(&texto);
        let responde = marca(t, c);
        // ANCHOR_END: peticion

        calculando += (prepara.fin - prepara.inicio) + (responde.fin - responde.inicio);
        esperando += espera.fin - espera.inicio;
        cpu_en_esperas += espera.cpu.unwrap_or_default();
        ultima = Traza { prepara, espera, responde };
    }
    let total = inicio.elapsed();
    let cpu_total = cpu_al_empezar.zip(cpu_del_hilo()).map(|(antes, ahora)| ahora - antes);

    let por_peticion_calculo = calculando / n;
    let por_peticion_espera = esperando / n;
    println!("Peticiones atendidas, una tras otra, en un hilo: {}", entero(u64::from(n)));
    println!(
        "Cada una: hash de {} KiB, consulta a 127.0.0.1 que tarda {} ms, otro hash de {} KiB",
        TAMANO_DEL_CALCULO / 1024,
        ESPERA_DE_LA_BASE.as_millis(),
        TAMANO_DEL_CALCULO / 1024
    );
    println!();
    println!("Traza de la última petición (µs desde su inicio; CPU = CPU que gastó el hilo):");
    println!("  {:<28} {:>8} {:>8} {:>8}", "tramo", "inicio", "fin", "CPU");
    for (nombre, tramo) in [
        ("calcula: prepara la consulta", ultima.prepara),
        ("espera: base de datos", ultima.espera),
        ("calcula: prepara la respuesta", ultima.responde),
    ] {
        let cpu = match tramo.cpu {
            Some(c) => numero(us(c), 1),
            None => "¿?".to_string(),
        };
        println!("  {:<28} {:>8} {:>8} {:>8}", nombre, numero(us(tramo.inicio), 1), numero(us(tramo.fin), 1), cpu);
    }
    println!();
    println!("Resumen:");
    println!("  Tiempo total:                 {:>9} ms", numero(ms(total), 1));
    println!(
        "  Calculando:                   {:>9} ms ({} %)",
        numero(ms(calculando), 3),
        numero(100.0 * calculando.as_secs_f64() / total.as_secs_f64(), 2)
    );
    println!(
        "  Esperando:                    {:>9} ms ({} %)",
        numero(ms(esperando), 3),
        numero(100.0 * esperando.as_secs_f64() / total.as_secs_f64(), 2)
    );
    println!(
        "  Por petición:                 {} µs calculando, {} ms esperando: 1 a {}",
        numero(us(por_peticion_calculo), 1),
        numero(ms(por_peticion_espera), 3),
        numero(esperando.as_secs_f64() / calculando.as_secs_f64().max(1e-9), 0)
    );
    match cpu_total {
        Some(cpu) => {
            println!(
                "  CPU que gastó el hilo:        {:>9} ms de {} ms ({} ms de ella dentro de las esperas)",
                numero(ms(cpu), 3),
                numero(ms(total), 1),
                numero(ms(cpu_en_esperas), 3)
            );
        }
        None => println!("  CPU que gastó el hilo:        no disponible en este sistema"),
    }
    let por_peticion = total / n;
    println!("  Un hilo así atiende:          {} peticiones por segundo", numero(1.0 / por_peticion.as_secs_f64(), 0));
    println!(
        "  Si no esperase, atendería:    {} peticiones por segundo",
        numero(1.0 / por_peticion_calculo.as_secs_f64().max(1e-9), 0)
    );
    println!("Suma de comprobación:           {comprobacion:016x}");
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1_000_000.0
}
