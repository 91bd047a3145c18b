//! `cargo curso vigila`: prueba, espera a que guardes, repite.
//!
//! Vigila los archivos aunque no haya terminal (lanzado en segundo plano o
//! como tarea del editor): solo para con Ctrl+C o una señal. El teclado se lee
//! si hay terminal (p, l, q) y, en `--manual`, Enter vuelve a probar.

use std::io::{BufRead, IsTerminal};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use curso::modelo::Ejercicio;
use curso::practica::{self, Practica};
use curso::{Curso, Error};

use super::aprendiz;

enum Evento {
    Cambio,
    Linea(String),
    /// Se acabó la entrada estándar.
    Fin,
}

pub fn vigilar(curso: &Curso, nombre: Option<&str>, manual: bool) -> Result<(), Error> {
    let Some(mut e) = aprendiz::elegir(&Practica::abrir(curso), nombre)? else {
        println!("¡Has terminado todos los ejercicios!");
        return Ok(());
    };
    let (tx, rx) = mpsc::channel();
    let teclado = manual || std::io::stdin().is_terminal();
    if teclado {
        leer_teclado(tx.clone());
    }
    let vigilante = if manual { None } else { vigilante_o_manual(&curso.raiz, tx, teclado)? };
    let automatico = vigilante.is_some();
    loop {
        println!("\n──────── Vigilando «{}» ({}) ────────", e.nombre, e.ruta().display());
        let r = practica::probar(curso, e)?;
        // Entre dos pruebas pudiste cambiar cualquier ejercicio: el progreso se lee cada vez.
        let mut progreso = Practica::abrir(curso);
        progreso.anotar(&[(e, r.paso)])?;
        print!("{}", r.informe);
        if let Some(aviso) = aprendiz::requisitos_pendientes(&progreso, e) {
            println!("\n{aviso}");
        }
        if r.paso {
            let Some(siguiente) = progreso.siguiente() else {
                println!("¡Has terminado todos los ejercicios!");
                return Ok(());
            };
            println!("{}", aprendiz::tras_superar(&progreso, e));
            println!("Sigo vigilando ahora «{}»: abre {}", siguiente.nombre, siguiente.ruta().display());
            e = siguiente;
            continue;
        }
        if r.vecinos.is_empty() {
            print!("{}", aprendiz::ofrecer_pista(&mut progreso, e)?);
        }
        println!("\n{}", instrucciones(automatico, teclado));
        if !esperar(&rx, e, curso, automatico)? {
            return Ok(());
        }
    }
}

/// El vigilante de archivos o, si no se puede y hay teclado, ninguno (modo manual).
fn vigilante_o_manual(
    raiz: &Path,
    tx: mpsc::Sender<Evento>,
    teclado: bool,
) -> Result<Option<notify::RecommendedWatcher>, Error> {
    match vigilante(raiz, tx) {
        Ok(v) => Ok(Some(v)),
        Err(err) if teclado => {
            println!("No puedo vigilar los archivos aquí ({err}). Sigo en modo manual: Enter vuelve a probar.");
            Ok(None)
        }
        Err(err) => Err(Error::mensaje(format!("no puedo vigilar los archivos aquí ({err}); prueba con --manual"))),
    }
}

fn instrucciones(automatico: bool, teclado: bool) -> &'static str {
    match (automatico, teclado) {
        (true, true) => "Guarda el archivo para volver a probar. p+Enter: pista · l+Enter: lista · q+Enter: salir",
        (true, false) => "Guarda el archivo para volver a probar. Para salir: Ctrl+C.",
        (false, _) => "Enter: volver a probar · p+Enter: pista · l+Enter: lista · q+Enter: salir",
    }
}

/// Espera hasta que toque volver a probar (`true`) o haya que salir (`false`).
fn esperar(rx: &mpsc::Receiver<Evento>, e: &Ejercicio, curso: &Curso, automatico: bool) -> Result<bool, Error> {
    loop {
        let Ok(evento) = rx.recv() else {
            return Err(Error::mensaje("se perdió la vigilancia de archivos"));
        };
        match evento {
            Evento::Cambio => {
                // Un guardado suele llegar como varios avisos seguidos.
                while rx.recv_timeout(Duration::from_millis(300)).is_ok_and(|ev| matches!(ev, Evento::Cambio)) {}
                return Ok(true);
            }
            Evento::Linea(l) if l.is_empty() && !automatico => return Ok(true),
            Evento::Linea(l) if l.is_empty() => {}
            Evento::Linea(l) if l == "p" => {
                print!("{}", aprendiz::siguiente_pista(&mut Practica::abrir(curso), e, false)?)
            }
            Evento::Linea(l) if l == "l" => {
                print!("{}", Practica::abrir(curso).listado(false))
            }
            Evento::Linea(l) if l == "q" => return Ok(false),
            Evento::Linea(l) => println!("No entiendo «{l}». Usa p, l o q."),
            // Sin teclado que leer, en modo manual ya no llegará ninguna orden.
            Evento::Fin if !automatico => return Ok(false),
            Evento::Fin => {}
        }
    }
}

fn leer_teclado(tx: mpsc::Sender<Evento>) {
    std::thread::spawn(move || {
        for linea in std::io::stdin().lock().lines() {
            let Ok(linea) = linea else { break };
            if tx.send(Evento::Linea(linea.trim().to_lowercase())).is_err() {
                return;
            }
        }
        let _ = tx.send(Evento::Fin);
    });
}

fn vigilante(raiz: &Path, tx: mpsc::Sender<Evento>) -> notify::Result<notify::RecommendedWatcher> {
    use notify::{EventKind, RecursiveMode, Watcher};
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        if let Ok(ev) = ev {
            let cambia = matches!(ev.kind, EventKind::Modify(_) | EventKind::Create(_));
            if cambia && ev.paths.iter().any(|p| p.extension().is_some_and(|x| x == "rs")) {
                let _ = tx.send(Evento::Cambio);
            }
        }
    })?;
    w.watch(&raiz.join("exercises"), RecursiveMode::Recursive)?;
    Ok(w)
}
