//! Los escenarios del reproductor del libro: ejecuciones cortas del
//! ejecutor con robo, paso a paso y con semilla, grabadas con la *feature*
//! `traza`. `cargo run -q -p leccion-09 --bin trazas` las escribe en
//! `book/trazas/`; la prueba `trazas_al_dia` las vuelve a generar en memoria
//! y exige que coincidan byte a byte con las del repositorio.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use planificador::traza::PasoAPaso;
use planificador::{Ejecutor, ceder};

/// Un escenario: su archivo, su título, su semilla y cómo se construye.
pub struct Escenario {
    pub archivo: &'static str,
    pub titulo: &'static str,
    pub descripcion: &'static str,
    pub trabajadores: usize,
    pub semilla: u64,
    corre: fn(&mut PasoAPaso),
}

impl Escenario {
    /// La traza del escenario, en el JSON que lee el reproductor.
    pub fn genera(&self) -> String {
        let mut paso = PasoAPaso::nuevo(self.trabajadores, self.semilla);
        (self.corre)(&mut paso);
        paso.json(self.titulo, self.descripcion, self.semilla)
    }
}

/// Todos los escenarios, en el orden del libro.
pub const ESCENARIOS: [Escenario; 6] = [
    Escenario {
        archivo: "reparto-2.json",
        titulo: "Una tarea lanza ocho, con 2 trabajadores",
        descripcion: "Desde fuera se lanza una tarea que lanza ocho hijas; cada hija cede el turno una vez y termina.",
        trabajadores: 2,
        semilla: 7,
        corre: |p| reparto(p, 8),
    },
    Escenario {
        archivo: "reparto-4.json",
        titulo: "Una tarea lanza doce, con 4 trabajadores",
        descripcion: "El mismo reparto con cuatro trabajadores: los que duermen despiertan y roban.",
        trabajadores: 4,
        semilla: 11,
        corre: |p| reparto(p, 12),
    },
    Escenario {
        archivo: "desborde.json",
        titulo: "La cola local se desborda",
        descripcion: "Una tarea lanza 258 hijas en un solo sondeo: la cola local (256 como mucho) se llena y desborda hacia la global. La grabación se corta poco después.",
        trabajadores: 2,
        semilla: 3,
        corre: desborde,
    },
    Escenario {
        archivo: "tope-lifo.json",
        titulo: "El tope de la ranura LIFO",
        descripcion: "Dos tareas se despiertan la una a la otra sin parar mientras otras tres esperan en la cola local de un solo trabajador.",
        trabajadores: 1,
        semilla: 5,
        corre: tope_lifo,
    },
    Escenario {
        archivo: "robo-carrera.json",
        titulo: "Dos ladrones a la vez",
        descripcion: "Un trabajador llena su cola; los otros dos despiertan y le roban, y luego se roban entre ellos.",
        trabajadores: 3,
        semilla: 2,
        corre: |p| reparto(p, 10),
    },
    Escenario {
        archivo: "duerme-despierta.json",
        titulo: "Dormir y despertar",
        descripcion: "Dos tareas esperan una señal de fuera. Los trabajadores se quedan sin nada y duermen; la señal llega y un aviso despierta a uno.",
        trabajadores: 2,
        semilla: 9,
        corre: duerme_despierta,
    },
];

/// Lo más que da vueltas un escenario (una red: todos acaban antes).
const MAX_VUELTAS: usize = 2_000;

/// Una tarea que lanza `hijas` hijas; cada hija cede una vez y termina.
fn reparto(paso: &mut PasoAPaso, hijas: usize) {
    let ejecutor = paso.ejecutor();
    let e = ejecutor.clone();
    ejecutor.lanza_desligada(async move {
        for _ in 0..hijas {
            e.lanza_desligada(async {
                ceder().await;
            });
        }
    });
    assert!(paso.corre(MAX_VUELTAS), "el reparto no acabó en {MAX_VUELTAS} vueltas");
}

fn desborde(paso: &mut PasoAPaso) {
    let ejecutor = paso.ejecutor();
    let e = ejecutor.clone();
    ejecutor.lanza_desligada(async move {
        for _ in 0..258 {
            e.lanza_desligada(async {});
        }
    });
    // Se corta a propósito: con 258 tareas, la traza entera pesaría mucho.
    paso.corre(12);
}

/// El turno compartido de dos tareas que se despiertan la una a la otra.
struct Relevo {
    turno: usize,
    rondas: u32,
    wakers: [Option<Waker>; 2],
}

struct Pelota {
    yo: usize,
    relevo: Arc<Mutex<Relevo>>,
}

impl Future for Pelota {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut r = self.relevo.lock().unwrap();
        if r.rondas == 0 {
            if let Some(otro) = r.wakers[1 - self.yo].take() {
                otro.wake();
            }
            return Poll::Ready(());
        }
        if r.turno == self.yo {
            r.rondas -= 1;
            r.turno = 1 - self.yo;
            if let Some(otro) = r.wakers[1 - self.yo].take() {
                otro.wake();
            }
        }
        r.wakers[self.yo] = Some(cx.waker().clone());
        Poll::Pending
    }
}

fn tope_lifo(paso: &mut PasoAPaso) {
    let ejecutor = paso.ejecutor();
    let relevo = Arc::new(Mutex::new(Relevo { turno: 0, rondas: 7, wakers: [None, None] }));
    for yo in 0..2 {
        ejecutor.lanza_desligada(Pelota { yo, relevo: Arc::clone(&relevo) });
    }
    for _ in 0..3 {
        ejecutor.lanza_desligada(async {});
    }
    assert!(paso.corre(MAX_VUELTAS), "el relevo no acabó en {MAX_VUELTAS} vueltas");
}

/// Una señal de fuera: `Ready` cuando alguien la enciende.
#[derive(Default)]
struct Senal {
    encendida: bool,
    wakers: Vec<Waker>,
}

struct Espera(Arc<Mutex<Senal>>);

impl Future for Espera {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut s = self.0.lock().unwrap();
        if s.encendida {
            return Poll::Ready(());
        }
        s.wakers.push(cx.waker().clone());
        Poll::Pending
    }
}

fn duerme_despierta(paso: &mut PasoAPaso) {
    let ejecutor = paso.ejecutor();
    let senal = Arc::new(Mutex::new(Senal::default()));
    for _ in 0..2 {
        ejecutor.lanza_desligada(Espera(Arc::clone(&senal)));
    }
    assert!(paso.corre(MAX_VUELTAS), "la espera no acabó en {MAX_VUELTAS} vueltas");
    // Todos duermen. Ahora llega la señal, desde fuera de los trabajadores.
    let wakers = {
        let mut s = senal.lock().unwrap();
        s.encendida = true;
        std::mem::take(&mut s.wakers)
    };
    wakers.into_iter().for_each(Waker::wake);
    assert!(paso.corre(MAX_VUELTAS), "tras la señal, no acabó en {MAX_VUELTAS} vueltas");
}

/// La carpeta del libro donde viven las trazas.
pub fn carpeta_de_trazas() -> PathBuf {
    let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("lessons/NN/ está dentro del repositorio");
    raiz.join("book/trazas")
}
