//! Cada ejercicio se prueba a sí mismo.
//!
//! Para cada capítulo con ejercicios se genera, en `target/verificacion/`, un
//! espacio de trabajo aparte con estas variantes ([`variantes`]), que se
//! compilan de una vez ([`compilar`]), se ejecutan ([`ejecutar`]) y se
//! juzgan ([`juicio`]):
//!
//! - la solución tal cual: todas las pruebas de cada ejercicio pasan;
//! - el ejercicio tal cual: compila, salvo que tenga un ejercicio «haz que
//!   compile»;
//! - por cada ejercicio X, la solución con el archivo de X tomado del
//!   ejercicio: las pruebas de X fallan (o, si X es «haz que compile», no
//!   compila, y el error señala el archivo de X). Así cada ejercicio
//!   demuestra su propio fallo, no el de sus vecinos;
//! - por cada respuesta incorrecta de X (un parche contra la solución), la
//!   solución con el parche aplicado: las pruebas de X fallan, y entre ellas
//!   alguna de la propiedad que el parche dice romper;
//! - por cada ejercicio X, el inicial del capítulo con solo X resuelto (y lo
//!   que X requiere, y los «haz que compile»): las pruebas de X pasan. Un
//!   vecino sin resolver no rompe las pruebas de otro.
//!
//! Las pruebas son siempre las mismas: las de `exercises/NN-.../tests/`. La
//! ejecuta `cargo curso mantenimiento comprueba` (y la integración continua,
//! en su paso 4); con `--repite N`, N veces, para ver pruebas inestables.

pub mod compilar;
pub mod ejecutar;
mod espacio;
pub mod juicio;
pub mod variantes;

use std::time::Instant;

pub use ejecutar::Ejecucion;

use crate::error::{Hallazgo, Lugar, Tipo};
use crate::modelo::Curso;
use crate::procesos::directorio_target;

/// Lo que encontró la verificación.
#[derive(Debug, Default)]
pub struct Informe {
    /// Cada cosa que está mal, con el ejercicio o el capítulo.
    pub problemas: Vec<Hallazgo>,
    /// Una línea por ejercicio verificado.
    pub resumen: Vec<String>,
    /// Cuánto tardó cada fase (compilar, cada capítulo).
    pub tiempos: Vec<String>,
}

/// Verifica los ejercicios del curso (todos los de `curso.ejercicios`: para
/// verificar unos pocos, [`Curso::con_ejercicios`]).
pub fn verificar(curso: &Curso) -> Informe {
    let mut informe = Informe { problemas: curso.validar(), ..Default::default() };
    if !informe.problemas.is_empty() {
        return informe;
    }
    let fallo = |informe: &mut Informe, e: crate::Error| {
        informe.problemas.push(Hallazgo::con_tipo(Lugar::Curso, Tipo::SinVerificar, e.to_string()));
    };
    // Un espacio de trabajo por conjunto de capítulos, con un `target/` común:
    // dos verificaciones de capítulos distintos pueden correr a la vez.
    // El mismo `target/` que el resto del curso: las dependencias (Tokio,
    // Rayon...) ya están compiladas con las mismas opciones y no se repiten.
    // Las variantes tienen sus propios nombres de paquete, así que no pisan
    // nada del espacio de trabajo.
    // El espacio de trabajo generado es código fuente, no compilación: vive
    // en `target/verificacion/` de la raíz aunque `CARGO_TARGET_DIR` lleve la
    // compilación a otra parte (así dos copias del curso no se pisan).
    let target = directorio_target(&curso.raiz);
    let numeros: Vec<String> = curso.capitulos_con_ejercicios().iter().filter_map(|c| numero(curso, c)).collect();
    let base = curso.ruta("target/verificacion").join(format!("ws-{}", numeros.join("-")));
    let mut variantes = match variantes::preparar(curso, &base) {
        Ok((v, no_se_aplican)) => {
            informe.problemas.extend(no_se_aplican);
            v
        }
        Err(e) => {
            fallo(&mut informe, e);
            return informe;
        }
    };
    let inicio = Instant::now();
    if let Err(e) = compilar::compilar(&base, &target, &mut variantes) {
        fallo(&mut informe, e);
        return informe;
    }
    let segundos = inicio.elapsed().as_secs_f64();
    informe.tiempos.push(format!("compilar {} variantes: {} s", variantes.len(), medidas::numero(segundos, 1)));
    let inicio = Instant::now();
    let resultados = ejecutar::ejecutar_todas(curso, &variantes);
    let segundos = inicio.elapsed().as_secs_f64();
    informe.tiempos.push(format!(
        "ejecutar {} pruebas de variantes: {} s",
        resultados.len(),
        medidas::numero(segundos, 1)
    ));
    let inicio = Instant::now();
    let juicio = juicio::Juicio { curso, variantes: &variantes, resultados: &resultados };
    for capitulo in curso.capitulos_con_ejercicios() {
        let v = juicio.capitulo(capitulo);
        informe.problemas.extend(v.problemas);
        informe.resumen.extend(v.resumen);
    }
    informe.tiempos.push(format!("listas y demos: {} s", medidas::numero(inicio.elapsed().as_secs_f64(), 1)));
    informe
}

/// El número de un capítulo con ejercicios, como se escribe (`06`).
fn numero(curso: &Curso, capitulo: &str) -> Option<String> {
    curso.ejercicios_de(capitulo).next().map(|e| e.numero().to_string())
}
