//! La traza del ejecutor con robo de trabajo (solo con la *feature* `traza`).
//!
//! Dos maneras de grabar:
//!
//! - **Paso a paso** ([`PasoAPaso`]): los trabajadores no son hilos; un solo
//!   hilo los mueve de uno en uno, y una semilla elige a quién le toca dar
//!   la siguiente vuelta (buscar una tarea, sondearla y colocar lo que
//!   despertó). Cada evento guarda una foto del estado: la tarea que sondea
//!   cada trabajador, su ranura LIFO, su cola local y la cola global. La
//!   misma semilla da la misma traza, byte a byte: no hay hilos, ni relojes,
//!   ni orden de un `HashMap` en medio.
//! - **En vivo** ([`Registro::en_vivo`]): el ejecutor de verdad, con sus
//!   hilos. Solo se anota cuándo sondea cada trabajador qué tarea (y si la
//!   robó) y cuándo duerme, con la hora: de ahí sale la línea de tiempo.
//!
//! El ejecutor llama a los métodos de [`Registro`] desde `robo.rs` con la
//! macro `anota!`, que desaparece al compilar sin la *feature*.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::azar::XorShift;
use super::robo::{self, CAPACIDAD_LOCAL, Compartido, MAX_LIFO_SEGUIDAS, Robo, Trabajador};

/// La foto de un trabajador.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FotoTrabajador {
    /// La tarea que tiene entre manos (la que sondea o va a sondear).
    pub sondea: Option<usize>,
    pub ranura: Option<usize>,
    /// Su cola local, del frente (la próxima) al final.
    pub cola: Vec<usize>,
    pub dormido: bool,
}

/// La foto de todo el ejecutor tras un evento.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Foto {
    pub trabajadores: Vec<FotoTrabajador>,
    pub global: Vec<usize>,
}

/// Un evento de la traza paso a paso.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evento {
    /// `lanza`, `global`, `lote`, `robo`, `sondea`, `termina`, `pendiente`,
    /// `ranura`, `cede`, `tope`, `cola`, `desborde`, `duerme`, `despierta`.
    pub tipo: &'static str,
    /// El trabajador protagonista, si lo hay.
    pub trabajador: Option<usize>,
    /// Lo que pasa, en español.
    pub texto: String,
    pub foto: Foto,
}

/// Lo que se lleva la cuenta en el modo paso a paso.
struct Pasos {
    ranura: Vec<Option<usize>>,
    sondea: Vec<Option<usize>>,
    dormido: Vec<bool>,
    /// La última tarea que sondeó cada trabajador (quien lanza o despierta).
    ultima: Vec<Option<usize>>,
    /// El trabajador que da la vuelta ahora.
    actual: usize,
    /// Tareas lanzadas que aún no han entrado en ninguna cola.
    nuevas: BTreeSet<usize>,
    /// La tarea que va camino de una cola local o de la global.
    a_la_cola: Option<usize>,
    a_la_global: Option<usize>,
    /// La tarea que `recoge_despertadas` está colocando: `true` si va a la ranura.
    entrante: Option<(usize, bool)>,
    /// Avisos a dormidos aún sin atender.
    avisos: usize,
    ultima_foto: Foto,
    eventos: Vec<Evento>,
}

/// Un sondeo en vivo: quién, qué tarea, cuándo (µs desde el arranque) y si la robó.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tramo {
    pub trabajador: usize,
    pub tarea: usize,
    pub inicio_us: u64,
    pub fin_us: u64,
    pub robada: bool,
}

/// Un sueño en vivo: de cuándo a cuándo durmió un trabajador.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sueno {
    pub trabajador: usize,
    pub inicio_us: u64,
    pub fin_us: u64,
}

#[derive(Default)]
struct VivoTrabajador {
    en_curso: Option<(usize, u64, bool)>,
    dormido_desde: Option<u64>,
    tramos: Vec<Tramo>,
    suenos: Vec<Sueno>,
}

struct Vivo {
    origen: Instant,
    trabajadores: Vec<Mutex<VivoTrabajador>>,
    robadas: Mutex<HashSet<usize>>,
}

enum Modo {
    Pasos(Mutex<Pasos>),
    Vivo(Vivo),
}

/// La grabación. El ejecutor la guarda en su estado compartido.
pub struct Registro {
    modo: Modo,
}

impl Registro {
    fn paso_a_paso(trabajadores: usize) -> Registro {
        let foto = Foto { trabajadores: vec![FotoTrabajador::default(); trabajadores], global: Vec::new() };
        Registro {
            modo: Modo::Pasos(Mutex::new(Pasos {
                ranura: vec![None; trabajadores],
                sondea: vec![None; trabajadores],
                dormido: vec![false; trabajadores],
                ultima: vec![None; trabajadores],
                actual: 0,
                nuevas: BTreeSet::new(),
                a_la_cola: None,
                a_la_global: None,
                entrante: None,
                avisos: 0,
                ultima_foto: foto,
                eventos: Vec::new(),
            })),
        }
    }

    /// Una grabación en vivo para `trabajadores` hilos: pásala a [`Robo::grabando`].
    pub fn en_vivo(trabajadores: usize) -> Arc<Registro> {
        Arc::new(Registro {
            modo: Modo::Vivo(Vivo {
                origen: Instant::now(),
                trabajadores: (0..trabajadores.max(1)).map(|_| Mutex::new(VivoTrabajador::default())).collect(),
                robadas: Mutex::new(HashSet::new()),
            }),
        })
    }

    fn pasos(&self) -> Option<std::sync::MutexGuard<'_, Pasos>> {
        match &self.modo {
            Modo::Pasos(p) => Some(p.lock().unwrap()),
            Modo::Vivo(_) => None,
        }
    }

    fn vivo(&self) -> Option<&Vivo> {
        match &self.modo {
            Modo::Vivo(v) => Some(v),
            Modo::Pasos(_) => None,
        }
    }

    /// Los sondeos y los sueños grabados en vivo, ordenados por trabajador y hora.
    pub fn tramos_y_suenos(&self) -> (Vec<Tramo>, Vec<Sueno>) {
        let Some(vivo) = self.vivo() else { return (Vec::new(), Vec::new()) };
        let mut tramos = Vec::new();
        let mut suenos = Vec::new();
        for t in &vivo.trabajadores {
            let t = t.lock().unwrap();
            tramos.extend(t.tramos.iter().copied());
            suenos.extend(t.suenos.iter().copied());
        }
        (tramos, suenos)
    }

    // --- Los ganchos que llama `robo.rs` ---

    pub(crate) fn nueva(&self, id: usize) {
        if let Some(mut p) = self.pasos() {
            p.nuevas.insert(id);
        }
    }

    pub(crate) fn va_a_la_global(&self, id: usize) {
        if let Some(mut p) = self.pasos() {
            p.a_la_global = Some(id);
        }
    }

    pub(crate) fn en_la_global(&self, c: &Compartido) {
        let Some(mut p) = self.pasos() else { return };
        let Some(id) = p.a_la_global.take() else { return };
        let texto = if p.nuevas.remove(&id) {
            format!("Se lanza la tarea {id} desde fuera de los trabajadores: entra al final de la cola global.")
        } else {
            format!("Alguien de fuera despierta la tarea {id}: entra al final de la cola global.")
        };
        p.emite(c, "lanza", None, texto);
    }

    pub(crate) fn de_la_global(&self, c: &Compartido, id: usize) {
        let Some(mut p) = self.pasos() else { return };
        let w = p.actual;
        p.sondea[w] = Some(id);
        let texto = format!(
            "Vuelta múltiplo de {}: antes que nada, el trabajador {w} mira la cola global y saca la tarea {id}.",
            robo::INTERVALO_GLOBAL
        );
        p.emite(c, "global", Some(w), texto);
    }

    pub(crate) fn lote(&self, c: &Compartido, w: usize, primera: usize) {
        let Some(mut p) = self.pasos() else { return };
        let antes = p.ultima_foto.trabajadores[w].cola.len();
        let despues = c.locales[w].lock().unwrap().len();
        let n = despues.saturating_sub(antes) + 1;
        p.sondea[w] = Some(primera);
        let texto = if n == 1 {
            format!("El trabajador {w} no tiene nada suyo: toma la tarea {primera} de la cola global.")
        } else if n == 2 {
            format!(
                "El trabajador {w} no tiene nada suyo: se lleva un lote de 2 tareas de la cola global; sondeará la {primera} y deja la otra en su cola local."
            )
        } else {
            format!(
                "El trabajador {w} no tiene nada suyo: se lleva un lote de {n} tareas de la cola global; sondeará la {primera} y deja las otras {} en su cola local.",
                n - 1
            )
        };
        p.emite(c, "lote", Some(w), texto);
    }

    pub(crate) fn robo(&self, c: &Compartido, ladron: usize, victima: usize, primera: usize, n: usize) {
        if let Some(vivo) = self.vivo() {
            vivo.robadas.lock().unwrap().insert(primera);
            return;
        }
        let Some(mut p) = self.pasos() else { return };
        p.sondea[ladron] = Some(primera);
        let texto = format!(
            "El trabajador {ladron} no tiene nada suyo y la cola global está vacía: roba {n} {} al trabajador {victima} (la mitad de su cola, redondeando hacia arriba, desde el frente) y sondeará la {primera}.",
            if n == 1 { "tarea" } else { "tareas" }
        );
        p.emite(c, "robo", Some(ladron), texto);
    }

    pub(crate) fn entra(&self, _w: usize, id: usize, a_la_ranura: bool) {
        if let Some(mut p) = self.pasos() {
            p.entrante = Some((id, a_la_ranura));
        }
    }

    pub(crate) fn va_a_la_cola(&self, _w: usize, id: usize) {
        if let Some(mut p) = self.pasos() {
            p.a_la_cola = Some(id);
        }
    }

    pub(crate) fn en_la_cola(&self, c: &Compartido, w: usize) {
        let Some(mut p) = self.pasos() else { return };
        let Some(id) = p.a_la_cola.take() else { return };
        let (tipo, mut texto) = if p.ranura[w] == Some(id) {
            if let Some((nueva, true)) = p.entrante {
                // `pon_en_ranura`: la nueva echa a la que estaba.
                p.entrante = None;
                p.ranura[w] = Some(nueva);
                let verbo = p.verbo(w, nueva);
                (
                    "ranura",
                    format!(
                        "{verbo} la tarea {nueva}: entra en la ranura LIFO del trabajador {w} y echa a la {id} al final de su cola local."
                    ),
                )
            } else {
                p.ranura[w] = None;
                (
                    "tope",
                    format!(
                        "Tope de la ranura LIFO: ya salieron {MAX_LIFO_SEGUIDAS} tareas seguidas de la ranura del trabajador {w}, así que la {id} no sale ahora: va al final de su cola local."
                    ),
                )
            }
        } else if p.entrante == Some((id, false)) {
            p.entrante = None;
            (
                "cede",
                format!(
                    "La tarea {id} cede el turno (se despertó a sí misma): vuelve al final de la cola local del trabajador {w}."
                ),
            )
        } else {
            ("cola", format!("La tarea {id} entra al final de la cola local del trabajador {w}."))
        };
        let en_la_global = c.inyector.lock().unwrap().contains_id(id);
        if en_la_global {
            let _ = write!(
                texto,
                " Pero esa cola ya tenía {CAPACIDAD_LOCAL} tareas: se desborda, y su mitad más nueva ({}) y la {id} se van a la cola global.",
                CAPACIDAD_LOCAL / 2
            );
            p.emite(c, "desborde", Some(w), texto);
        } else {
            p.emite(c, tipo, Some(w), texto);
        }
    }

    pub(crate) fn en_ranura(&self, c: &Compartido, w: usize) {
        let Some(mut p) = self.pasos() else { return };
        let Some((id, true)) = p.entrante.take() else { return };
        p.ranura[w] = Some(id);
        let verbo = p.verbo(w, id);
        let texto =
            format!("{verbo} la tarea {id}: entra en la ranura LIFO del trabajador {w}, que la sondeará enseguida.");
        p.emite(c, "ranura", Some(w), texto);
    }

    pub(crate) fn aviso(&self) {
        if let Some(mut p) = self.pasos() {
            p.avisos += 1;
        }
    }

    pub(crate) fn empieza_vuelta(&self, w: usize) {
        if let Some(mut p) = self.pasos() {
            p.actual = w;
        }
    }

    pub(crate) fn sondea(&self, c: &Compartido, w: usize, id: usize) {
        if let Some(vivo) = self.vivo() {
            let robada = vivo.robadas.lock().unwrap().remove(&id);
            let ahora = vivo.origen.elapsed().as_micros() as u64;
            vivo.trabajadores[w].lock().unwrap().en_curso = Some((id, ahora, robada));
            return;
        }
        let Some(mut p) = self.pasos() else { return };
        let origen = if p.ranura[w] == Some(id) {
            "que sale de su ranura LIFO"
        } else if p.sondea[w] == Some(id) {
            "que acaba de tomar"
        } else {
            "que sale del frente de su cola local"
        };
        // Tras buscar, la ranura siempre queda vacía: o salió de ella, o la
        // echó el tope, o ya estaba vacía.
        p.ranura[w] = None;
        p.sondea[w] = Some(id);
        p.ultima[w] = Some(id);
        let texto = format!("El trabajador {w} sondea la tarea {id}, {origen}.");
        p.emite(c, "sondea", Some(w), texto);
    }

    pub(crate) fn sondeada(&self, c: &Compartido, w: usize, id: usize, terminada: bool) {
        if let Some(vivo) = self.vivo() {
            let fin_us = vivo.origen.elapsed().as_micros() as u64;
            let mut t = vivo.trabajadores[w].lock().unwrap();
            if let Some((tarea, inicio_us, robada)) = t.en_curso.take() {
                t.tramos.push(Tramo { trabajador: w, tarea, inicio_us, fin_us, robada });
            }
            return;
        }
        let Some(mut p) = self.pasos() else { return };
        p.sondea[w] = None;
        let texto = if terminada {
            format!("La tarea {id} termina: el trabajador {w} queda libre.")
        } else {
            format!("La tarea {id} devuelve Pending: el trabajador {w} coloca lo que despertó y sigue.")
        };
        p.emite(c, if terminada { "termina" } else { "pendiente" }, Some(w), texto);
    }

    pub(crate) fn duerme(&self, _c: &Compartido, w: usize) {
        if let Some(vivo) = self.vivo() {
            vivo.trabajadores[w].lock().unwrap().dormido_desde = Some(vivo.origen.elapsed().as_micros() as u64);
        }
    }

    pub(crate) fn despierta(&self, _c: &Compartido, w: usize) {
        if let Some(vivo) = self.vivo() {
            let fin_us = vivo.origen.elapsed().as_micros() as u64;
            let mut t = vivo.trabajadores[w].lock().unwrap();
            if let Some(inicio_us) = t.dormido_desde.take() {
                t.suenos.push(Sueno { trabajador: w, inicio_us, fin_us });
            }
        }
    }
}

/// Para buscar una tarea por su número en una cola de `Arc<Tarea>`.
trait ContieneId {
    fn contains_id(&self, id: usize) -> bool;
}

impl ContieneId for std::collections::VecDeque<Arc<super::tarea::Tarea>> {
    fn contains_id(&self, id: usize) -> bool {
        self.iter().any(|t| t.id == id)
    }
}

impl Pasos {
    fn verbo(&mut self, w: usize, id: usize) -> String {
        let quien = match self.ultima[w] {
            Some(t) => format!("Al sondearse, la tarea {t}"),
            None => "Alguien".to_string(),
        };
        if self.nuevas.remove(&id) { format!("{quien} lanzó") } else { format!("{quien} despertó a") }
    }

    fn foto(&self, c: &Compartido) -> Foto {
        let trabajadores = (0..self.ranura.len())
            .map(|w| FotoTrabajador {
                sondea: self.sondea[w],
                ranura: self.ranura[w],
                cola: c.locales[w].lock().unwrap().iter().map(|t| t.id).collect(),
                dormido: self.dormido[w],
            })
            .collect();
        Foto { trabajadores, global: c.inyector.lock().unwrap().iter().map(|t| t.id).collect() }
    }

    fn emite(&mut self, c: &Compartido, tipo: &'static str, trabajador: Option<usize>, texto: String) {
        let foto = self.foto(c);
        self.ultima_foto = foto.clone();
        self.eventos.push(Evento { tipo, trabajador, texto, foto });
    }
}

// ANCHOR: paso_a_paso
/// El ejecutor con robo, sin hilos: una semilla decide qué trabajador da la
/// siguiente vuelta. Los trabajadores, las colas y el código de cada vuelta
/// son los de [`Robo`]; solo cambia quién decide el orden, y dormir es
/// apuntarse como dormido en vez de esperar en la `Condvar`.
pub struct PasoAPaso {
    compartido: Arc<Compartido>,
    registro: Arc<Registro>,
    trabajadores: Vec<Trabajador>,
    azar: XorShift,
    vueltas: usize,
}
// ANCHOR_END: paso_a_paso

impl PasoAPaso {
    /// `trabajadores` trabajadores parados; `semilla` fija el orden.
    pub fn nuevo(trabajadores: usize, semilla: u64) -> PasoAPaso {
        let trabajadores = trabajadores.max(1);
        let registro = Arc::new(Registro::paso_a_paso(trabajadores));
        let compartido = Compartido::grabando(trabajadores, Arc::clone(&registro));
        let mut azar = XorShift::new(semilla ^ 0x5DEE_CE66_D1CE_4E5B);
        let trabajadores = (0..trabajadores).map(|i| Trabajador::nuevo(i, azar.siguiente())).collect();
        PasoAPaso { compartido, registro, trabajadores, azar, vueltas: 0 }
    }

    /// Un manejador para lanzar tareas (desde fuera, o desde las tareas).
    pub fn ejecutor(&self) -> Robo {
        Robo::sin_hilos(Arc::clone(&self.compartido))
    }

    /// Vueltas dadas hasta ahora.
    pub fn vueltas(&self) -> usize {
        self.vueltas
    }

    /// Da vueltas hasta que todos duermen sin avisos pendientes, o hasta
    /// `max_vueltas`. Devuelve `true` si acabó porque todos dormían.
    pub fn corre(&mut self, max_vueltas: usize) -> bool {
        let n = self.trabajadores.len();
        for _ in 0..max_vueltas {
            self.atiende_avisos();
            let despiertos: Vec<usize> =
                (0..n).filter(|&w| !self.registro.pasos().expect("paso a paso").dormido[w]).collect();
            if despiertos.is_empty() {
                return true;
            }
            let w = despiertos[self.azar.hasta(despiertos.len())];
            robo::pon_bandeja(&self.compartido);
            let hizo_algo = self.trabajadores[w].vuelta(&self.compartido);
            robo::quita_bandeja();
            self.vueltas += 1;
            if !hizo_algo {
                self.duerme(w);
            }
        }
        self.atiende_avisos();
        false
    }

    fn duerme(&mut self, w: usize) {
        self.compartido.dormidos.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut p = self.registro.pasos().expect("paso a paso");
        p.dormido[w] = true;
        let texto = format!(
            "El trabajador {w} no encuentra nada: ni en su ranura, ni en su cola local, ni en la global, ni a quién robar. Se apunta como dormido y duerme."
        );
        p.emite(&self.compartido, "duerme", Some(w), texto);
    }

    /// Cada aviso despierta a un dormido (elegido por la semilla), si lo hay.
    fn atiende_avisos(&mut self) {
        loop {
            let mut p = self.registro.pasos().expect("paso a paso");
            if p.avisos == 0 {
                return;
            }
            p.avisos -= 1;
            let dormidos: Vec<usize> = (0..p.dormido.len()).filter(|&w| p.dormido[w]).collect();
            if dormidos.is_empty() {
                continue;
            }
            let w = dormidos[self.azar.hasta(dormidos.len())];
            p.dormido[w] = false;
            self.compartido.dormidos.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            let texto = format!(
                "Llegó trabajo donde antes no había y alguien dormía: un aviso despierta al trabajador {w}, que vuelve a buscar."
            );
            p.emite(&self.compartido, "despierta", Some(w), texto);
        }
    }

    /// Los eventos grabados hasta ahora.
    pub fn eventos(&self) -> Vec<Evento> {
        self.registro.pasos().expect("paso a paso").eventos.clone()
    }

    /// La traza en el formato del reproductor del libro (JSON, un evento por línea).
    pub fn json(&self, titulo: &str, descripcion: &str, semilla: u64) -> String {
        let eventos = self.eventos();
        let n = self.trabajadores.len();
        let mut s = String::new();
        s.push_str("{\"formato\":1,\n");
        let _ = writeln!(s, "\"titulo\":{},", cadena(titulo));
        let _ = writeln!(s, "\"descripcion\":{},", cadena(descripcion));
        let _ = writeln!(s, "\"semilla\":{semilla},");
        let columnas: Vec<String> = (0..n).map(|w| cadena(&format!("Trabajador {w}"))).collect();
        let _ = writeln!(s, "\"columnas\":[{}],", columnas.join(","));
        s.push_str("\"casillas\":[{\"clave\":\"sondea\",\"nombre\":\"Sondea\"},{\"clave\":\"ranura\",\"nombre\":\"Ranura LIFO\"}],\n");
        s.push_str("\"listas\":[{\"clave\":\"cola\",\"nombre\":\"Cola local\"}],\n");
        s.push_str("\"comunes\":[{\"clave\":\"global\",\"nombre\":\"Cola global\"}],\n");
        s.push_str("\"elemento\":\"tarea\",\n");
        let inicial = Foto { trabajadores: vec![FotoTrabajador::default(); n], global: Vec::new() };
        let _ = writeln!(s, "\"inicial\":{},", foto_json(&inicial));
        s.push_str("\"eventos\":[\n");
        for (i, e) in eventos.iter().enumerate() {
            let trabajador = e.trabajador.map_or("null".to_string(), |w| w.to_string());
            let _ = write!(
                s,
                "{{\"tipo\":\"{}\",\"columna\":{trabajador},\"texto\":{},\"estado\":{}}}",
                e.tipo,
                cadena(&e.texto),
                foto_json(&e.foto)
            );
            s.push_str(if i + 1 < eventos.len() { ",\n" } else { "\n" });
        }
        s.push_str("]}\n");
        s
    }
}

fn foto_json(f: &Foto) -> String {
    let opcion = |o: Option<usize>| o.map_or("null".to_string(), |v| v.to_string());
    let lista = |l: &[usize]| l.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let columnas: Vec<String> = f
        .trabajadores
        .iter()
        .map(|t| {
            format!(
                "{{\"sondea\":{},\"ranura\":{},\"cola\":[{}],\"dormido\":{}}}",
                opcion(t.sondea),
                opcion(t.ranura),
                lista(&t.cola),
                t.dormido
            )
        })
        .collect();
    format!("{{\"columnas\":[{}],\"comunes\":{{\"global\":[{}]}}}}", columnas.join(","), lista(&f.global))
}

/// Una cadena JSON con sus escapes.
pub fn cadena(texto: &str) -> String {
    let mut s = String::with_capacity(texto.len() + 2);
    s.push('"');
    for c in texto.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
