//! ¿Cuesta algo la *feature* `traza` cuando no se graba? Compila la misma
//! carga (`solutions/09-tu-planificador/examples/carga.rs`) dos veces, con
//! y sin la *feature*, cada una en su carpeta de `target/`, e intercala sus
//! ejecuciones: con, sin, con, sin... Da la mediana y el mínimo y el máximo
//! de cada una. Orden: `cargo run --release -p leccion-09 --bin coste-traza`
//! (`-- --repeticiones N`, 7 por defecto, al menos 5; `--rapido`, una sola
//! vez cada una, solo para comprobar que funciona).

use std::path::{Path, PathBuf};
use std::process::Command;

use medidas::numero;
use opciones::clap::{self, Parser};

fn raiz() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("lessons/NN/ está en el repositorio").to_path_buf()
}

fn falla(mensaje: &str) -> ! {
    eprintln!("error: {mensaje}");
    std::process::exit(1);
}

/// Compila la carga y devuelve la ruta del ejecutable.
fn compila(con_traza: bool) -> PathBuf {
    let carpeta = raiz().join("target/coste-traza").join(if con_traza { "con" } else { "sin" });
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut orden = Command::new(cargo);
    orden.current_dir(raiz()).args(["build", "-q", "--release", "-p", "soluciones-09", "--example", "carga"]);
    orden.arg("--target-dir").arg(&carpeta);
    if con_traza {
        orden.args(["--features", "traza"]);
    }
    let estado = orden.status().unwrap_or_else(|e| falla(&format!("no puedo ejecutar cargo: {e}")));
    if !estado.success() {
        falla("la carga no compila");
    }
    carpeta.join("release/examples/carga")
}

/// Una ejecución: (reloj, CPU de todos sus hilos), en ms.
fn una_vez(programa: &Path) -> (f64, f64) {
    let salida = Command::new(programa).output().unwrap_or_else(|e| falla(&format!("no arranca la carga: {e}")));
    let texto = String::from_utf8_lossy(&salida.stdout);
    let campo = |nombre: &str| -> f64 {
        texto
            .lines()
            .find_map(|l| l.strip_prefix(nombre)?.trim().parse().ok())
            .unwrap_or_else(|| falla(&format!("la carga no dijo su {nombre} {texto}")))
    };
    (campo("ms="), campo("cpu_ms="))
}

/// Las opciones de `coste-traza`.
#[derive(Parser)]
#[command(about = "¿Cuesta algo la feature traza cuando no se graba? La misma carga, con y sin ella, intercaladas.")]
struct Opciones {
    /// Ejecuciones de cada variante
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = opciones::entre(5usize, 50))]
    repeticiones: usize,
    /// Una sola vez cada una, solo para comprobar que funciona (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let repeticiones = if opciones.rapido { 1 } else { opciones.repeticiones };
    let con = compila(true);
    let sin = compila(false);
    // Una de calentamiento de cada una, sin contar.
    una_vez(&con);
    una_vez(&sin);
    let (mut t_con, mut t_sin) = (Vec::new(), Vec::new());
    for _ in 0..repeticiones {
        t_con.push(una_vez(&con));
        t_sin.push(una_vez(&sin));
    }
    println!(
        "La misma carga (50 000 tareas vacías y 500 que ceden 100 veces, 2 hilos), {repeticiones} veces cada una, intercaladas:"
    );
    for (medida, elige) in [("reloj", 0), ("CPU", 1)] {
        let de = |t: &Vec<(f64, f64)>| {
            let v: Vec<f64> = t.iter().map(|&(r, c)| if elige == 0 { r } else { c }).collect();
            medidas::mediana_y_extremos(&v).unwrap_or_default()
        };
        let (mc, minc, maxc) = de(&t_con);
        let (ms, mins, maxs) = de(&t_sin);
        println!(
            "  {medida} con la feature traza (sin grabar): mediana {} ms (mín. {} ms, máx. {} ms)",
            numero(mc, 2),
            numero(minc, 2),
            numero(maxc, 2)
        );
        println!(
            "  {medida} sin la feature traza:              mediana {} ms (mín. {} ms, máx. {} ms)",
            numero(ms, 2),
            numero(mins, 2),
            numero(maxs, 2)
        );
        if minc <= maxs && mins <= maxc {
            println!(
                "  {medida}: los intervalos mín.-máx. se solapan; la diferencia de medianas ({} ms) no se distingue aquí",
                numero(mc - ms, 2)
            );
        } else {
            println!("  {medida}: los intervalos no se solapan; diferencia de medianas {} ms", numero(mc - ms, 2));
        }
    }
}
