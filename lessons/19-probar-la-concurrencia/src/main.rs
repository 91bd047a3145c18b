//! `cargo run -p leccion-19 --release [-- --rapido]`: loom, shuttle y turmoil
//! contra los mismos errores de los capítulos 04, 09 y 13.

use std::time::Duration;

use leccion_19::aviso::{Aparcar, escena};
use leccion_19::celda::{espera_el_aviso, publica};
use leccion_19::ejecutor;
use leccion_19::explora::{Planificador, Resultado, con_loom, con_shuttle, planificacion, repite_shuttle};
use leccion_19::red::{self, Espera, Servidor};
use medidas::{entero, numero};
use opciones::clap::{self, Parser};

/// Opciones de la lección.
#[derive(Parser)]
#[command(
    name = "leccion-19",
    about = "loom, shuttle y turmoil contra los mismos errores de los capítulos 04, 09 y 13."
)]
struct Opciones {
    /// Una ejecución de cada caso y cotas cortas (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Uso interno: ejecuta un solo modelo de loom en este proceso (uno que aborta al fallar)
    #[arg(long, hide = true, value_name = "NOMBRE")]
    modelo: Option<String>,
}

fn ms(d: Duration) -> String {
    numero(d.as_secs_f64() * 1e3, 2)
}

/// Mediana, mínimo y máximo (los de `medidas`; 0 si no hay medidas).
fn resumen(v: Vec<f64>) -> (f64, f64, f64) {
    medidas::mediana_y_extremos(&v).unwrap_or_default()
}

// Los modelos de loom: `fn()` sin capturas.
fn loom_error() {
    escena(Aparcar::SinVolverAMirar, 1, 1);
}
fn loom_1p_1t() {
    escena(Aparcar::Correcto, 1, 1);
}
fn loom_1p_2t() {
    escena(Aparcar::Correcto, 1, 2);
}
fn loom_2p_2t() {
    escena(Aparcar::Correcto, 2, 2);
}
fn loom_3p_3t() {
    escena(Aparcar::Correcto, 3, 3);
}
fn loom_publica_relaxed() {
    publica(loom::sync::atomic::Ordering::Relaxed);
}
fn loom_publica_release() {
    publica(loom::sync::atomic::Ordering::Release);
}
fn loom_aviso_tarde() {
    espera_el_aviso(false);
}
fn loom_aviso_antes() {
    espera_el_aviso(true);
}

/// Un caso de loom: nombre, modelo y cota de expulsiones.
type Caso = (&'static str, fn(), Option<usize>);

fn cota(c: Option<usize>) -> String {
    c.map_or("sin cota".to_string(), |c| c.to_string())
}

fn primera_linea(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn main() {
    let Opciones { rapido, modelo } = opciones::de_la_linea_de_ordenes();
    if let Some(nombre) = modelo {
        // En su propio proceso: si falla, loom aborta, y el padre lee por qué.
        match nombre.as_str() {
            "aviso-tarde" => loom::model(loom_aviso_tarde),
            "aviso-antes" => loom::model(loom_aviso_antes),
            otro => {
                eprintln!("error: modelo desconocido «{otro}»");
                std::process::exit(2);
            }
        }
        return;
    }
    let repeticiones = if rapido { 1 } else { 5 };

    // ── 1. loom ────────────────────────────────────────────────────────
    println!("== 1. loom: el aviso perdido del capítulo 09 ==");
    let r = con_loom(loom_error, None, None);
    let (mensaje, bitacora) = r.fallo.clone().expect("loom debía encontrar el aviso perdido");
    println!(
        "aparcar sin volver a mirar: falla en la ejecución {} ({} ms)",
        entero(r.ejecuciones as u64),
        ms(r.duracion)
    );
    println!("loom dice: {}", primera_linea(&mensaje));
    println!("el entrelazado que falla (T = trabajador, P = productor):");
    for l in &bitacora {
        println!("  {l}");
    }
    let r = con_loom(loom_1p_1t, None, None);
    assert!(r.fallo.is_none(), "la versión correcta falló: {:?}", r.fallo);
    println!("aparcar volviendo a mirar: {} ejecuciones, ninguna falla", entero(r.ejecuciones as u64));

    println!();
    println!("-- lo que cuesta recorrerlo todo (mediana y mín–máx de {repeticiones} ejecuciones) --");
    let tope = Some(Duration::from_secs(if rapido { 5 } else { 60 }));
    let mut casos: Vec<Caso> = vec![
        ("1 productor, 1 tarea", loom_1p_1t, None),
        ("1 productor, 2 tareas", loom_1p_2t, Some(1)),
        ("1 productor, 2 tareas", loom_1p_2t, Some(2)),
        ("1 productor, 2 tareas", loom_1p_2t, None),
        ("2 productores, 2 tareas", loom_2p_2t, Some(1)),
        ("2 productores, 2 tareas", loom_2p_2t, Some(2)),
        ("2 productores, 2 tareas", loom_2p_2t, Some(3)),
    ];
    if !rapido {
        casos.push(("2 productores, 2 tareas", loom_2p_2t, None));
        casos.push(("3 productores, 3 tareas", loom_3p_3t, Some(2)));
    }
    let mut tiempos = vec![Vec::new(); casos.len()];
    let mut ejecuciones = vec![0usize; casos.len()];
    let mut cortados = vec![false; casos.len()];
    for _ in 0..repeticiones {
        // Intercaladas: una vuelta de cada caso, cinco vueltas.
        for (i, (_, modelo, c)) in casos.iter().enumerate() {
            let r = con_loom(*modelo, *c, tope);
            assert!(r.fallo.is_none(), "un modelo correcto falló: {:?}", r.fallo);
            tiempos[i].push(r.duracion.as_secs_f64() * 1e3);
            ejecuciones[i] = r.ejecuciones;
            cortados[i] = tope.is_some_and(|t| r.duracion >= t);
        }
    }
    for (i, (nombre, _, c)) in casos.iter().enumerate() {
        let (m, lo, hi) = resumen(tiempos[i].clone());
        let corte = if cortados[i] { " (cortado por el tope de tiempo: no terminó)" } else { "" };
        println!(
            "loom {nombre}, cota {}: {} ejecuciones, {} ms ({}–{}){corte}",
            cota(*c),
            entero(ejecuciones[i] as u64),
            numero(m, 2),
            numero(lo, 2),
            numero(hi, 2)
        );
    }

    if rapido {
        // Las líneas existen también en modo rápido, sin medir: así el
        // registro de mediciones las encuentra.
        println!("loom 2 productores, 2 tareas, cota sin cota: solo en modo completo");
        println!("loom 3 productores, 3 tareas, cota 2: solo en modo completo");
        println!("loom 3 productores, 3 tareas, cota sin cota: solo en modo completo");
    } else {
        // Una sola vez, con un tope de 20 s: no acaba, y lo que importa es cuánto exploró.
        let r = con_loom(loom_3p_3t, None, Some(Duration::from_secs(20)));
        println!(
            "loom 3 productores, 3 tareas, cota sin cota: {} ejecuciones en {} ms, sin terminar (tope de 20 s)",
            entero(r.ejecuciones as u64),
            numero(r.duracion.as_secs_f64() * 1e3, 2)
        );
    }

    println!();
    println!("-- loom::cell::UnsafeCell y loom::future::block_on --");
    for (nombre, modelo) in [
        ("dato publicado con una bandera Relaxed", loom_publica_relaxed as fn()),
        ("dato publicado con una bandera Release", loom_publica_release),
    ] {
        let r = con_loom(modelo, None, None);
        match r.fallo {
            Some((mensaje, _)) => {
                println!("{nombre}: falla en la ejecución {}: {}", r.ejecuciones, primera_linea(&mensaje))
            }
            None => println!("{nombre}: {} ejecuciones, ninguna falla", r.ejecuciones),
        }
    }
    // Un bloqueo dentro de `block_on` hace abortar el proceso entero (loom
    // vuelve a entrar en sí mismo al soltar lo que `block_on` tenía): cada
    // modelo va en un proceso aparte, y aquí se lee lo que dijo.
    for (nombre, modelo) in [
        ("block_on, el future se apunta después de mirar", "aviso-tarde"),
        ("block_on, el future se apunta antes de mirar", "aviso-antes"),
    ] {
        let salida = std::process::Command::new(std::env::current_exe().expect("este programa"))
            .args(["--modelo", modelo])
            .output()
            .expect("lanzar el modelo en otro proceso");
        let error = String::from_utf8_lossy(&salida.stderr);
        match error.lines().find(|l| l.contains("deadlock")) {
            _ if salida.status.success() => println!("{nombre}: ninguna ejecución falla"),
            Some(l) => println!("{nombre}: falla: {}", l.trim()),
            None => println!("{nombre}: falla: {}", primera_linea(&error)),
        }
    }

    // ── 2. shuttle ─────────────────────────────────────────────────────
    println!();
    println!(
        "== 2. shuttle: {} trabajadores con robo, {} tareas inyectadas y sus hijas ==",
        ejecutor::TRABAJADORES,
        ejecutor::INYECTADAS
    );
    // En modo rápido, dos semillas que fallan pronto con los dos planificadores.
    let semillas: Vec<u64> = if rapido { vec![1, 13] } else { (0..20).collect() };
    let maximo = 100_000;
    for planificador in [Planificador::Azar, Planificador::Pct(3)] {
        let mut hasta = Vec::new();
        let mut duraciones = Vec::new();
        for &semilla in &semillas {
            let r = con_shuttle(ejecutor::con_error, planificador, semilla, maximo);
            assert!(r.fallo.is_some(), "shuttle no encontró el error con la semilla {semilla}");
            hasta.push(r.ejecuciones as f64);
            duraciones.push(r.duracion.as_secs_f64() * 1e3);
        }
        let lista: Vec<String> = hasta.iter().map(|&x| numero(x, 0)).collect();
        let (m, lo, hi) = resumen(hasta);
        let (dm, dlo, dhi) = resumen(duraciones);
        println!("shuttle {planificador:?}, iteraciones hasta el fallo por semilla: {}", lista.join(", "));
        println!(
            "shuttle {planificador:?}, {} semillas: mediana {} iteraciones ({}–{}), {} ms ({}–{})",
            semillas.len(),
            numero(m, 1),
            numero(lo, 0),
            numero(hi, 0),
            numero(dm, 2),
            numero(dlo, 2),
            numero(dhi, 2)
        );
    }
    let buenas = if rapido { 200 } else { 10_000 };
    let r = con_shuttle(ejecutor::correcta, Planificador::Azar, 0, buenas);
    assert!(r.fallo.is_none(), "la versión correcta falló: {:?}", r.fallo);
    println!(
        "shuttle, versión correcta: {} iteraciones sin fallo en {} ms",
        entero(r.ejecuciones as u64),
        ms(r.duracion)
    );
    let r = con_shuttle(ejecutor::correcta, Planificador::Pct(3), 0, buenas);
    assert!(r.fallo.is_none(), "la versión correcta falló con PCT: {:?}", r.fallo);
    println!(
        "shuttle PCT, versión correcta: {} iteraciones sin fallo en {} ms",
        entero(r.ejecuciones as u64),
        ms(r.duracion)
    );

    let r = con_shuttle(ejecutor::con_error, Planificador::Azar, 1, maximo);
    let (mensaje, bitacora) = r.fallo.expect("falla con la semilla 1");
    let plan = planificacion(&mensaje).expect("shuttle imprime la planificación que falla");
    println!("shuttle dice: {}", primera_linea(&mensaje));
    println!("la planificación que falla ({} caracteres): {plan}", plan.len());
    let repetida: Resultado = repite_shuttle(ejecutor::con_error, &plan);
    let (_, otra) = repetida.fallo.expect("la repetición también falla");
    println!(
        "shuttle::replay: falla a la primera ({} ejecución), bitácora idéntica: {}",
        repetida.ejecuciones,
        if otra == bitacora { "sí" } else { "no" }
    );
    println!("la bitácora (F = fuera, T0 y T1 = trabajadores):");
    for l in &bitacora {
        println!("  {l}");
    }

    // ── 3. turmoil ─────────────────────────────────────────────────────
    println!();
    println!("== 3. turmoil: tres ingresos de 10 con latencia de 1 a 400 ms y plazo de 500 ms ==");
    let n: u64 = if rapido { 4 } else { 200 };
    let malas: Vec<u64> = (0..n).filter(|&s| !red::ingresos(s, Servidor::SinClave).cuadra()).collect();
    println!("servidor sin clave: {} de {n} semillas no cuadran", malas.len());
    let primera = *malas.first().expect("alguna semilla no cuadra");
    let a = red::ingresos(primera, Servidor::SinClave);
    let b = red::ingresos(primera, Servidor::SinClave);
    println!(
        "semilla {primera}: saldo {} (esperado {}); repetida, traza idéntica: {}",
        a.saldo,
        a.esperado,
        if a.traza == b.traza { "sí" } else { "no" }
    );
    for l in &a.traza {
        println!("  {l}");
    }
    let malas_con_clave = (0..n).filter(|&s| !red::ingresos(s, Servidor::ConClave).cuadra()).count();
    println!("servidor con clave: {malas_con_clave} de {n} semillas no cuadran");

    println!();
    let clientes = 10;
    println!("== tormenta: {clientes} clientes, red partida 10 s, plazo de 100 ms por intento ==");
    for espera in [Espera::Fija, Espera::Exponencial, Espera::ExponencialConAzar] {
        let t = red::tormenta(clientes, espera, 1);
        println!(
            "espera {espera:?}: {} peticiones durante la partición, {} en total, el último acabó a los {} s",
            entero(t.durante as u64),
            entero(t.total as u64),
            numero(t.fin.as_secs_f64(), 2)
        );
        println!(
            "espera {espera:?}: ráfaga mayor de reintentos, {} en un mismo tic de 10 ms; tras reparar la red, {}",
            t.rafaga, t.rafaga_tras_reparar
        );
    }
}
