//! Lo que cuesta cada dependencia directa en la compilación en frío.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::error::Error;
use crate::procesos::Proceso;
use crate::procesos::cargo::{Metadatos, tiempos_de_compilacion};

/// Lo que cuesta una dependencia directa en la compilación en frío.
#[derive(Debug, Clone)]
pub struct Coste {
    /// La dependencia directa (`tokio`) y quién la usa.
    pub dependencia: String,
    pub usada_por: Vec<String>,
    /// Cuántos paquetes llegan solo a través de ella (ella incluida).
    pub paquetes: usize,
    /// Segundos de compilación de esos paquetes, sumados (tiempo de CPU de
    /// cada unidad, no de reloj: con 2 núcleos se solapan).
    pub segundos: f64,
}

/// El grafo de dependencias de un espacio de trabajo, por identificador de paquete.
struct Grafo<'a> {
    /// Identificador → (nombre, versión).
    paquetes: BTreeMap<&'a str, (String, String)>,
    miembros: BTreeSet<&'a str>,
    aristas: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> Grafo<'a> {
    fn de(meta: &'a Metadatos) -> Grafo<'a> {
        let paquetes = meta.packages.iter().map(|p| (p.id.as_str(), (p.name.clone(), p.version.clone()))).collect();
        let miembros = meta.workspace_members.iter().map(String::as_str).collect();
        let aristas = meta
            .resolve
            .iter()
            .flat_map(|r| &r.nodes)
            .map(|n| (n.id.as_str(), n.deps.iter().map(|d| d.pkg.as_str()).collect()))
            .collect();
        Grafo { paquetes, miembros, aristas }
    }

    /// Los paquetes a los que se llega desde los miembros; sin la dependencia
    /// directa `sin`, los miembros no la usan, pero otras dependencias pueden
    /// seguir trayéndola.
    fn alcanzables(&self, sin: Option<&str>) -> BTreeSet<&'a str> {
        let mut vistos = BTreeSet::new();
        let mut pila: Vec<&str> = self.miembros.iter().copied().collect();
        while let Some(n) = pila.pop() {
            if !vistos.insert(n) {
                continue;
            }
            let quitar = |d: &&str| self.miembros.contains(n) && Some(*d) == sin;
            pila.extend(self.aristas.get(n).into_iter().flatten().filter(|d| !quitar(d)).copied());
        }
        vistos
    }

    /// Cada dependencia directa de los miembros, con los miembros que la usan.
    fn directas(&self) -> BTreeMap<&'a str, BTreeSet<String>> {
        let mut directas: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for m in &self.miembros {
            for d in self.aristas.get(m).into_iter().flatten().filter(|d| !self.miembros.contains(*d)) {
                directas.entry(d).or_default().insert(self.paquetes.get(m).map(|p| p.0.clone()).unwrap_or_default());
            }
        }
        directas
    }
}

/// La plataforma de esta máquina, como la nombra rustc (`x86_64-unknown-linux-gnu`).
fn plataforma() -> Result<String, Error> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Proceso::programa(rustc).arg("-vV").salida_con_exito()?;
    version
        .stdout()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| Error::mensaje("rustc -vV no dice su plataforma"))
}

/// Lee el informe de `cargo test --timings` de `dir` y el grafo de
/// dependencias (`cargo metadata`), y reparte el tiempo de compilación entre
/// las dependencias directas de los paquetes del espacio de trabajo: lo que
/// se ahorraría si ningún paquete del espacio de trabajo la usara (si otra
/// dependencia también la trae, no se ahorra nada).
pub fn coste_de_dependencias(dir: &Path) -> Result<Vec<Coste>, Error> {
    let duracion = tiempos_de_compilacion(&dir.join("target/cargo-timings/cargo-timing.html"))?;
    // Solo los paquetes de esta plataforma: los de otras (kqueue en macOS)
    // ni se han descargado.
    let salida = Proceso::cargo()
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform", &plataforma()?])
        .en(dir)
        .salida_con_exito()?;
    let meta = Metadatos::de_json(&salida.stdout)?;
    let grafo = Grafo::de(&meta);
    let segundos_de = |ids: &mut dyn Iterator<Item = &&str>| -> f64 {
        ids.filter_map(|id| grafo.paquetes.get(id)).filter_map(|p| duracion.get(p)).sum()
    };
    let todos = grafo.alcanzables(None);
    let mut costes: Vec<Coste> = grafo
        .directas()
        .into_iter()
        .map(|(d, usuarios)| {
            let sin = grafo.alcanzables(Some(d));
            let solo: Vec<&str> = todos.difference(&sin).copied().collect();
            let (nombre, version) = grafo.paquetes.get(d).cloned().unwrap_or_default();
            Coste {
                dependencia: format!("{nombre} {version}"),
                usada_por: usuarios.into_iter().collect(),
                paquetes: solo.len(),
                segundos: segundos_de(&mut solo.iter()),
            }
        })
        .collect();
    costes.sort_by(|a, b| b.segundos.total_cmp(&a.segundos));
    costes.retain(|c| c.paquetes > 0);
    costes.push(Coste {
        dependencia: "(los paquetes del curso: lecciones, ejercicios, soluciones y curso)".into(),
        usada_por: Vec::new(),
        paquetes: grafo.miembros.len(),
        segundos: segundos_de(&mut grafo.miembros.iter()),
    });
    costes.push(Coste {
        dependencia: "(total de la compilación)".into(),
        usada_por: Vec::new(),
        paquetes: grafo.paquetes.len(),
        segundos: duracion.values().sum(),
    });
    Ok(costes)
}
